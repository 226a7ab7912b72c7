/**
 * spec 2026-07-28 server/*: tools, resources, prompts, completion, logging, pagination,
 * caching; every answer checked against the spec's schema.
 */
import { describe, expect, inject, it } from 'vitest';
import { meta, requestsTo, sseMessages } from '../support/mcp';
import { expectErrorSchema, expectSchema } from './expectSchema';

const { post, rpc } = requestsTo(inject('specUrl'));

/** Every item of a paginated list, following nextCursor. */
async function all(method: string, key: string) {
  const items: { name: string }[] = [];
  const scopes = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const { body } = await rpc(method, { params: cursor ? { cursor } : {} });
    expectSchema(
      body,
      `${{ 'tools/list': 'ListTools', 'resources/list': 'ListResources', 'resources/templates/list': 'ListResourceTemplates', 'prompts/list': 'ListPrompts' }[method]}ResultResponse`,
    );
    items.push(...body.result?.[key]);
    scopes.add(body.result?.cacheScope);
    cursor = body.result?.nextCursor;
    if (!cursor) break;
  }
  return { items, scopes };
}

describe('server/tools', () => {
  it('server/tools: "Servers that support tools MUST declare the tools capability" and "MUST respond to tools/list"', async () => {
    expect((await rpc('server/discover')).body.result?.capabilities.tools).toEqual({});
    const { items } = await all('tools/list', 'tools');
    expect(items.length).toBeGreaterThan(0);
    for (const tool of items) expectSchema(tool, 'Tool');
  });

  it('server/tools: "Servers SHOULD return tools in a deterministic order" and the set "MUST NOT vary ... as a side effect of other requests"', async () => {
    const first = (await all('tools/list', 'tools')).items.map((t) => t.name);
    await rpc('tools/call', { params: { name: 'echo', arguments: { text: 'side effect?' } } });
    expect((await all('tools/list', 'tools')).items.map((t) => t.name)).toEqual(first);
  });

  it('server/tools: every tool inputSchema "MUST be a valid JSON Schema object (not null)" with type object', async () => {
    for (const tool of (await all('tools/list', 'tools')).items as unknown as { inputSchema: { type: string } }[])
      expect(tool.inputSchema.type).toBe('object');
  });

  it('server/tools: "Servers MUST provide structured results that conform to this schema" (outputSchema)', async () => {
    const { body } = await rpc('tools/call', { params: { name: 'sum', arguments: { a: 2, b: 3 } } });
    expect(body.result?.structuredContent).toEqual({ sum: 5 });
    expectSchema(body, 'CallToolResultResponse');
  });

  it('server/tools: structured results that break the outputSchema are never sent: -32603 without internals', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'bad_output', arguments: {} } });
    expect(status).toBe(500);
    expect(body.error).toEqual({ code: -32603, message: 'Internal error' });
    expectErrorSchema(body, 'InternalError');
  });

  it('server/tools: "Servers MUST: Validate all tool inputs": invalid arguments are a tool execution error the model can read', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'sum', arguments: { a: 1 } } });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('b') }],
    });
    expectSchema(body, 'CallToolResultResponse');
  });

  it('server/tools: tools/call "arguments": null does not match CallToolRequest: -32602, not a tool error', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'echo', arguments: null } });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
    expectErrorSchema(body, 'InvalidParamsError');
  });

  it('server/tools: an unknown tool is a protocol error -32602 (Invalid params)', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'no_such_tool', arguments: {} } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32602, data: { name: 'no_such_tool' } });
  });
});

describe('server/resources', () => {
  it('server/resources: "Servers that support resources MUST declare the resources capability" and "MUST respond to resources/list"', async () => {
    expect((await rpc('server/discover')).body.result?.capabilities.resources).toEqual({});
    const { items } = await all('resources/list', 'resources');
    expect(items.map((r) => r.name).sort()).toEqual(['blob', 'note']);
    const templates = await all('resources/templates/list', 'resourceTemplates');
    expect(templates.items.length).toBe(1);
  });

  it('server/resources: resources/read answers text and "Binary data MUST be properly encoded" (base64 blob)', async () => {
    const text = await rpc('resources/read', { params: { uri: 'spec://note' } });
    expectSchema(text.body, 'ReadResourceResultResponse');
    const blob = await rpc('resources/read', { params: { uri: 'spec://blob' } });
    expectSchema(blob.body, 'ReadResourceResultResponse');
    expect(atob(blob.body.result?.contents[0].blob)).toBe('\u0000\u0001\u0002');
  });

  it('server/resources: "If the requested resource does not exist, servers MUST return a JSON-RPC error with code -32602" and "MUST NOT return an empty contents array"', async () => {
    for (const uri of ['spec://nothing', 'spec://colours/purple']) {
      const { status, body } = await rpc('resources/read', { params: { uri } });
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: -32602, data: { uri } });
    }
  });

  it('server/resources: "Servers MUST validate all resource URIs": a template variable cannot smuggle a path', async () => {
    const { body } = await rpc('resources/read', { params: { uri: 'spec://colours/red/../../secret' } });
    expect(body.error?.code).toBe(-32602);
  });
});

describe('server/prompts and server/utilities/completion', () => {
  it('server/prompts: "Servers that support prompts MUST declare the prompts capability" and answer prompts/list and prompts/get', async () => {
    expect((await rpc('server/discover')).body.result?.capabilities.prompts).toEqual({});
    const { items } = await all('prompts/list', 'prompts');
    expect(items.map((p) => p.name)).toEqual(['greet']);
    const { body } = await rpc('prompts/get', { params: { name: 'greet', arguments: { name: 'Ada' } } });
    expectSchema(body, 'GetPromptResultResponse');
  });

  it('server/prompts: "Servers SHOULD validate prompt arguments before processing": a missing required argument is -32602', async () => {
    const { status, body } = await rpc('prompts/get', { params: { name: 'greet', arguments: {} } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32602, data: { missing: ['name'] } });
  });

  it('server/prompts: "Servers SHOULD return standard JSON-RPC errors": an unknown prompt is -32602', async () => {
    const { body } = await rpc('prompts/get', { params: { name: 'nope' } });
    expect(body.error?.code).toBe(-32602);
  });

  it('completion: "Servers that support completions MUST declare the completions capability" and answer completion/complete', async () => {
    expect((await rpc('server/discover')).body.result?.capabilities.completions).toEqual({});
    const prompt = await rpc('completion/complete', {
      params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } },
    });
    expect(prompt.body.result?.completion.values).toEqual(['Ada', 'Alan']);
    expectSchema(prompt.body, 'CompleteResultResponse');
    const template = await rpc('completion/complete', {
      params: { ref: { type: 'ref/resource', uri: 'spec://colours/{name}' }, argument: { name: 'name', value: 'g' } },
    });
    expect(template.body.result?.completion.values).toEqual(['green']);
  });

  it('completion: "Servers SHOULD return standard JSON-RPC errors for common failure cases": a bad ref is -32602', async () => {
    const { status, body } = await rpc('completion/complete', {
      params: { ref: { type: 'ref/other' }, argument: { name: 'x', value: '' } },
    });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
  });
});

describe('server/utilities: logging, pagination, caching', () => {
  it('logging: "Servers that emit log message notifications MUST declare the logging capability"', async () => {
    expect((await rpc('server/discover')).body.result?.capabilities.logging).toEqual({});
  });

  it('logging: "The server MUST NOT emit notifications/message for a request that does not include this field"', async () => {
    const response = await post('tools/call', {
      params: { name: 'steps', arguments: { count: 2 }, _meta: meta({ progressToken: 'p' }) },
    });
    expect((await sseMessages(response)).filter((m) => m.method === 'notifications/message')).toEqual([]);
  });

  it('logging: messages at or above the requested level only, on the stream of the request that set it', async () => {
    const response = await post('tools/call', {
      params: { name: 'steps', arguments: { count: 2 }, _meta: meta({ 'io.modelcontextprotocol/logLevel': 'info' }) },
    });
    const logs = (await sseMessages(response)).filter((m) => m.method === 'notifications/message');
    expect(logs.map((m) => m.params?.level)).toEqual(['info', 'info']);
  });

  it('logging: "If the io.modelcontextprotocol/logLevel value ... is not a recognized log level, the server SHOULD reject that request"', async () => {
    const { status, body } = await rpc('tools/list', {
      params: { _meta: meta({ 'io.modelcontextprotocol/logLevel': 'loud' }) },
    });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
  });

  it('pagination: "Invalid cursors SHOULD result in an error with code -32602" and pages follow nextCursor to the end', async () => {
    const { status, body } = await rpc('tools/list', { params: { cursor: 'not-a-cursor' } });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
    const { items } = await all('tools/list', 'tools');
    expect(new Set(items.map((t) => t.name)).size).toBe(items.length);
  });

  it('caching: "Servers MUST provide a ttlMs value that is >= 0" on every cacheable result', async () => {
    for (const method of [
      'server/discover',
      'tools/list',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
    ]) {
      const { body } = await rpc(method);
      expect(body.result?.ttlMs, method).toBeGreaterThanOrEqual(0);
      expect(['public', 'private']).toContain(body.result?.cacheScope);
    }
    expect((await rpc('resources/read', { params: { uri: 'spec://note' } })).body.result?.ttlMs).toBeGreaterThanOrEqual(
      0,
    );
  });

  it('caching: "Servers MUST apply the same cacheScope to all response pages for a given list request"', async () => {
    expect((await all('tools/list', 'tools')).scopes.size).toBe(1);
  });

  it('caching: results of a retry with "inputResponses or requestState MUST NOT be cached"', async () => {
    const capabilities = { elicitation: {} };
    const first = await rpc('tools/call', { params: { name: 'ask_form', arguments: {} }, capabilities });
    expect(first.headers.get('Cache-Control')).toBe('no-store');
    const retry = await rpc('tools/call', {
      params: {
        name: 'ask_form',
        arguments: {},
        inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: first.body.result?.requestState,
      },
      capabilities,
    });
    expect(retry.headers.get('Cache-Control')).toBe('no-store');
    expect(retry.body.result).not.toHaveProperty('ttlMs');
  });
});
