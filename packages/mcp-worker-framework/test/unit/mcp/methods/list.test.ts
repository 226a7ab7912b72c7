/**
 * Lists show exactly the spec's fields: every field of the spec's `Tool`, `Resource`,
 * `ResourceTemplate`, `Prompt` and `PromptArgument` the author set, and nothing else. The
 * fixture sets the template's own fields too (`requiredScopes`, `timeoutMs`, `cache`,
 * completers, handlers), so any of them leaking into a list fails here.
 */
import { describe, expect, it } from 'vitest';
import { RawJson } from '../../../../src/mcp/json';
import { mcpRequest } from '../../../support/request';
import { definitions, edgeServer } from '../../../fixtures/edge/server';

/** The properties of each listed type (spec 2026-07-28 schema.json). */
const SPEC_FIELDS = {
  Tool: ['_meta', 'annotations', 'description', 'icons', 'inputSchema', 'name', 'outputSchema', 'title'],
  Resource: ['_meta', 'annotations', 'description', 'icons', 'mimeType', 'name', 'size', 'title', 'uri'],
  ResourceTemplate: ['_meta', 'annotations', 'description', 'icons', 'mimeType', 'name', 'title', 'uriTemplate'],
  Prompt: ['_meta', 'arguments', 'description', 'icons', 'name', 'title'],
  PromptArgument: ['description', 'name', 'required', 'title'],
};

/** A caller with every scope the fixture requires, so each list shows every item (anonymous callers see only unscoped ones). */
const everyScope = [
  ...new Set(
    Object.values(definitions)
      .flat()
      .flatMap((item) => ('requiredScopes' in item ? (item.requiredScopes ?? []) : [])),
  ),
];
const caller = { subject: 'lister', kind: 'person' as const, scopes: everyScope, claims: {} };

async function list(method: string, key: string): Promise<Record<string, unknown>[]> {
  const reply = await edgeServer.handle(
    mcpRequest({ jsonrpc: '2.0', id: 1, method, params: {} }, undefined, { caller }),
  );
  expect(reply.result).toBeInstanceOf(RawJson);
  return JSON.parse((reply.result as RawJson).json)[key];
}

/** The spec's fields the author set on a definition: what its listed form must have, exactly. */
const expectedKeys = (definition: object, spec: readonly string[]) =>
  Object.keys(definition)
    .filter((key) => spec.includes(key))
    .sort();

describe('listed definitions', () => {
  it('tools/list shows exactly the spec fields of each tool', async () => {
    const listed = await list('tools/list', 'tools');
    expect(listed).toHaveLength(definitions.tools.length);
    definitions.tools.forEach((tool, i) =>
      expect(Object.keys(listed[i]!).sort()).toEqual(expectedKeys(tool, SPEC_FIELDS.Tool)),
    );
    // The fixture really sets the template's own fields, so the assertion above can fail.
    expect(Object.keys(definitions.tools.find((t) => t.name === 'everything')!)).toEqual(
      expect.arrayContaining(['requiredScopes', 'requiresClientCapabilities', 'timeoutMs', 'handler']),
    );
  });

  it('resources/list shows exactly the spec fields of each resource', async () => {
    const listed = await list('resources/list', 'resources');
    expect(listed).toHaveLength(definitions.resources.length);
    definitions.resources.forEach((resource, i) =>
      expect(Object.keys(listed[i]!).sort()).toEqual(expectedKeys(resource, SPEC_FIELDS.Resource)),
    );
    expect(definitions.resources[0]).toHaveProperty('cache');
  });

  it('resources/templates/list shows exactly the spec fields of each template', async () => {
    const listed = await list('resources/templates/list', 'resourceTemplates');
    expect(listed).toHaveLength(definitions.resourceTemplates.length);
    definitions.resourceTemplates.forEach((template, i) =>
      expect(Object.keys(listed[i]!).sort()).toEqual(expectedKeys(template, SPEC_FIELDS.ResourceTemplate)),
    );
    expect(Object.keys(definitions.resourceTemplates[0]!)).toEqual(
      expect.arrayContaining(['cache', 'complete', 'read']),
    );
  });

  it('prompts/list shows exactly the spec fields of each prompt and of each of its arguments', async () => {
    const listed = await list('prompts/list', 'prompts');
    expect(listed).toHaveLength(definitions.prompts.length);
    definitions.prompts.forEach((prompt, i) => {
      expect(Object.keys(listed[i]!).sort()).toEqual(expectedKeys(prompt, SPEC_FIELDS.Prompt));
      const args = listed[i]!.arguments as Record<string, unknown>[];
      (prompt.arguments ?? []).forEach((argument, j) =>
        expect(Object.keys(args[j]!).sort()).toEqual(expectedKeys(argument, SPEC_FIELDS.PromptArgument)),
      );
    });
    expect(definitions.prompts[0]!.arguments?.[0]).toHaveProperty('complete');
  });
});
