/** The suite's fixture tools (content, errors, progress, logging, capabilities, headers, JSON Schema 2020-12). */
import { defineTool, elicit, inputRequired, sample, text } from '../../src/mcp';
import { NO_ARGUMENTS, PNG, WAV } from './content';

const simple = (name: string, description: string, handler: () => ReturnType<typeof text>) =>
  defineTool({ name, description, inputSchema: NO_ARGUMENTS, handler });

export const contentTools = [
  simple('test_simple_text', 'Returns simple text content', () => text('This is a simple text response for testing.')),
  simple('test_image_content', 'Returns image content', () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  })),
  simple('test_audio_content', 'Returns audio content', () => ({
    content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
  })),
  simple('test_embedded_resource', 'Returns an embedded resource', () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  })),
  simple('test_multiple_content_types', 'Returns text, image and resource content', () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ],
  })),
  simple('test_error_handling', 'Always returns a tool execution error', () => ({
    content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    isError: true,
  })),
];

export const behaviourTools = [
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50, 100 over SSE, then answers',
    inputSchema: NO_ARGUMENTS,
    async handler(_, { progress, signal }) {
      for (const value of [0, 50, 100]) {
        if (signal.aborted) break;
        progress(value, 100);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return text('Progress complete');
    },
  }),
  defineTool({
    name: 'test_logging_tool',
    description: 'Logs at three levels when the request asks for logs, then answers',
    inputSchema: NO_ARGUMENTS,
    handler(_, { log }) {
      log('debug', 'Tool execution started');
      log('info', 'Tool processing data');
      log('warning', 'Tool execution completed');
      return text('Logging complete');
    },
  }),
  defineTool({
    name: 'test_missing_capability',
    description: 'Needs the client to declare sampling',
    inputSchema: NO_ARGUMENTS,
    requiresClientCapabilities: ['sampling'],
    handler: ({}, { inputResponses }) =>
      inputResponses.answer ? text('Sampled') : inputRequired({ answer: sample('Say hello', 20) }),
  }),
  defineTool({
    name: 'test_streaming_elicitation',
    description: 'Asks for confirmation through MRTR, never with a request on the stream',
    inputSchema: NO_ARGUMENTS,
    requiresClientCapabilities: ['elicitation'],
    handler: ({}, { inputResponses }) =>
      inputResponses.confirm
        ? text('Confirmed')
        : inputRequired({ confirm: elicit('Confirm?', { type: 'object', properties: { ok: { type: 'boolean' } } }) }),
  }),
  defineTool({
    name: 'test_header_param',
    description: 'Mirrors its region parameter into the Mcp-Param-Region header',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
    handler: (args) => text(`Region: ${String(args.region)}`),
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Takes an input schema that uses JSON Schema 2020-12 keywords',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
    handler: (args) => text(`Received ${JSON.stringify(args)}`),
  }),
];
