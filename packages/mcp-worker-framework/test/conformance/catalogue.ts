/** The suite's fixture resources, resource template and prompts. */
import { definePrompt, defineResource, defineResourceTemplate } from '../../src/mcp';
import { PNG } from './content';

export const resources = [
  defineResource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource',
    mimeType: 'text/plain',
    read: () => ({
      contents: [
        { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ],
    }),
  }),
  defineResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a PNG image)',
    mimeType: 'image/png',
    read: () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }] }),
  }),
];

export const resourceTemplates = [
  defineResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    description: 'Data for any id',
    mimeType: 'application/json',
    read: (uri, { id }) => ({
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
    complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
  }),
];

export const prompts = [
  definePrompt({
    name: 'test_simple_prompt',
    description: 'A prompt without arguments',
    get: () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      {
        name: 'arg1',
        description: 'First argument',
        required: true,
        complete: (value) => ['testValue1', 'test'].filter((v) => v.startsWith(value)),
      },
      { name: 'arg2', description: 'Second argument', required: true },
    ],
    get: ({ arg1, arg2 }) => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
      ],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'The resource to embed', required: true }],
    get: ({ resourceUri = '' }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_image',
    description: 'A prompt that carries an image',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  }),
];
