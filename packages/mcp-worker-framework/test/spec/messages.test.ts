/** spec 2026-07-28 basic/index: JSON-RPC messages, ids, results, errors, notifications, `_meta`. */
import { describe, expect, inject, it } from 'vitest';
import { mcpHeaders, meta, replyOf, requestsTo } from '../support/mcp';
import { expectErrorSchema, expectSchema } from './expectSchema';

const { post, raw, rpc } = requestsTo(inject('specUrl'));

describe('basic/index: messages', () => {
  it('basic/index: "MUST follow the JSON-RPC 2.0 specification": a request gets one response object with jsonrpc "2.0"', async () => {
    const { body } = await rpc('server/discover');
    expect(body.jsonrpc).toBe('2.0');
    expectSchema(body, 'DiscoverResultResponse');
  });

  it('basic/index: "Requests MUST include a string or integer ID": a fractional id is an invalid request', async () => {
    const response = await raw(
      JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'server/discover', params: { _meta: meta() } }),
      mcpHeaders('server/discover'),
    );
    expect(response.status).toBe(400);
    const body = await replyOf(response);
    expect(body.error?.code).toBe(-32600);
    expectErrorSchema(body, 'InvalidRequestError');
  });

  it('basic/index: "the ID MUST NOT be null": a request with a null id is refused with -32600', async () => {
    const response = await raw(
      JSON.stringify({ jsonrpc: '2.0', id: null, method: 'server/discover', params: { _meta: meta() } }),
      mcpHeaders('server/discover'),
    );
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error?.code).toBe(-32600);
  });

  it('basic/index: "Result responses MUST include the same ID": string and integer ids come back as sent', async () => {
    for (const id of ['a-string-id', 0, -7, 2 ** 53 - 1]) {
      expect((await rpc('server/discover', { id })).body.id).toBe(id);
    }
  });

  it('basic/index: "MUST include the same ID": an integer id above 2^53 is echoed digit for digit', async () => {
    const id = '9007199254740993123';
    const response = await raw(
      `{"jsonrpc":"2.0","id":${id},"method":"server/discover","params":${JSON.stringify({ _meta: meta() })}}`,
      mcpHeaders('server/discover'),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(new RegExp(`^\\{"jsonrpc":"2\\.0","id":${id},"result"`));
  });

  it('basic/index: "Error responses MUST include the same ID": an error for a big integer id echoes it exactly', async () => {
    const id = '123456789012345678901234567890';
    const response = await raw(
      `{"jsonrpc":"2.0","id":${id},"method":"no/such","params":${JSON.stringify({ _meta: meta() })}}`,
      mcpHeaders('no/such'),
    );
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(`"id":${id},"error"`);
  });

  it('basic/index: "Result responses MUST include a result field" and "MUST include a resultType"', async () => {
    for (const method of [
      'server/discover',
      'tools/list',
      'resources/list',
      'resources/templates/list',
      'prompts/list',
    ]) {
      const { body } = await rpc(method);
      expect(body.result?.resultType, method).toBe('complete');
    }
  });

  it('basic/index: "Error responses MUST include the same ID as the request" and "an error field with a code and message"', async () => {
    const { body } = await rpc('tools/call', { id: 'err-1', params: { name: 'no_such_tool', arguments: {} } });
    expect(body.id).toBe('err-1');
    expect(Number.isInteger(body.error?.code)).toBe(true);
    expect(typeof body.error?.message).toBe('string');
    expectErrorSchema(body, 'InvalidParamsError');
  });

  it('basic/index: "except in error cases where the ID could not be read": a parse error answers with id null', async () => {
    const response = await raw('{"jsonrpc":"2.0","id":1,', mcpHeaders('server/discover'));
    expect(response.status).toBe(400);
    const body = await replyOf(response);
    expect(body).toMatchObject({ id: null, error: { code: -32700 } });
    expectErrorSchema(body, 'ParseError');
  });

  it('basic/index: "Implementations MUST NOT emit any code from this sub-range that is not defined": every error code is a defined one', async () => {
    const defined = new Set([-32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022]);
    const answers = await Promise.all([
      raw('not json', mcpHeaders('x')),
      raw('[]', mcpHeaders('x')),
      post('no/such'),
      post('tools/call', { params: { name: 'echo', arguments: null } }),
      post('tools/call', { params: { name: 'needs_sampling', arguments: {} } }),
      post('tools/list', { headers: { 'Mcp-Method': 'prompts/list' } }),
      post('tools/list', {
        params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
        headers: { 'MCP-Protocol-Version': '1900-01-01' },
      }),
      post('resources/read', { params: { uri: 'spec://missing' } }),
    ]);
    for (const response of answers) expect(defined.has((await replyOf(response)).error?.code ?? 0)).toBe(true);
  });

  it('basic/index: "MUST NOT emit these codes": a missing resource is -32602, never the legacy -32002', async () => {
    const { status, body } = await rpc('resources/read', { params: { uri: 'spec://missing' } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32602, data: { uri: 'spec://missing' } });
    expectErrorSchema(body, 'InvalidParamsError');
  });

  it('basic/index: "The receiver MUST NOT send a response" to a notification: 202 with an empty body', async () => {
    const response = await raw(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
      mcpHeaders('notifications/cancelled'),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });
});

describe('basic/index: statelessness and _meta', () => {
  it('basic/index: "Servers MUST NOT rely on prior requests": each request is judged on its own _meta', async () => {
    const withSampling = await rpc('tools/call', {
      params: { name: 'needs_sampling', arguments: {} },
      capabilities: { sampling: {} },
    });
    expect(withSampling.body.result?.content[0].text).toBe('ran');
    const without = await rpc('tools/call', { params: { name: 'needs_sampling', arguments: {} } });
    expect(without.body.error?.code).toBe(-32021);
  });

  it('basic/index: "State that needs to span multiple requests MUST be referenced by an explicit identifier": requestState carries the round', async () => {
    const first = await rpc('tools/call', {
      params: { name: 'ask_form', arguments: {} },
      capabilities: { elicitation: {} },
    });
    expect(first.body.result?.resultType).toBe('input_required');
    const requestState = first.body.result?.requestState;
    expect(typeof requestState).toBe('string');
    const inputResponses = { name: { action: 'accept', content: { name: 'Ada' } } };
    const retry = await rpc('tools/call', {
      id: 2,
      params: { name: 'ask_form', arguments: {}, inputResponses, requestState },
      capabilities: { elicitation: {} },
    });
    expect(retry.body.result?.content[0].text).toBe('hello Ada');
    const stateless = await rpc('tools/call', {
      id: 3,
      params: { name: 'ask_form', arguments: {}, inputResponses },
      capabilities: { elicitation: {} },
    });
    expect(stateless.body.result?.resultType).toBe('input_required');
  });

  it('basic/index: "the server MUST reject it with JSON-RPC error code -32602" when a required _meta field is missing, "status MUST be 400"', async () => {
    for (const drop of ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities']) {
      const partial: Record<string, unknown> = meta();
      delete partial[drop];
      const { status, body } = await rpc('tools/list', { params: { _meta: partial } });
      expect(status, drop).toBe(400);
      expect(body.error?.code, drop).toBe(-32602);
      if (drop !== 'io.modelcontextprotocol/protocolVersion') expectErrorSchema(body, 'InvalidParamsError');
    }
  });

  it('basic/index: "the server MUST return a MissingRequiredClientCapabilityError (-32021)" naming it, with "status MUST be 400"', async () => {
    const { status, body } = await rpc('tools/call', {
      params: { name: 'needs_sampling', arguments: {} },
      capabilities: { roots: {} },
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    expectErrorSchema(body, 'MissingRequiredClientCapabilityError');
  });

  it('basic/index: "Servers SHOULD include" serverInfo "in every result _meta"', async () => {
    const discover = (await rpc('server/discover')).body.result;
    const info = discover?._meta['io.modelcontextprotocol/serverInfo'];
    expect(info).toMatchObject({ name: expect.any(String), version: expect.any(String) });
    for (const [method, params] of [
      ['tools/list', {}],
      ['tools/call', { name: 'echo', arguments: { text: 'x' } }],
      ['resources/read', { uri: 'spec://note' }],
      ['prompts/get', { name: 'greet', arguments: { name: 'Ada' } }],
    ] as const) {
      expect((await rpc(method, { params })).body.result?._meta['io.modelcontextprotocol/serverInfo'], method).toEqual(
        info,
      );
    }
  });

  it('basic/index: "MUST support JSON Schema 2020-12 for schemas without an explicit $schema": tool input is checked by it', async () => {
    const { body } = await rpc('tools/call', { params: { name: 'sum', arguments: { a: 1, b: 'two' } } });
    expect(body.result?.isError).toBe(true);
    expect(body.result?.content[0].text).toMatch(/\/b/);
  });

  it('basic/index: "MUST NOT make assumptions about values at these keys": unknown keys, reserved prefix or not, change nothing', async () => {
    const { body } = await rpc('tools/list', {
      params: { _meta: { ...meta(), 'io.modelcontextprotocol/future': 42, 'example.com/x': 'y' } },
    });
    expect(body.result?.resultType).toBe('complete');
  });
});
