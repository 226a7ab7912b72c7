/** `_meta` on every request, protocol versions and unknown methods (spec 2026-07-28 basic/index, basic/versioning). */
import { describe, expect, it } from 'vitest';
import { defaultsUrl, mcpHeaders, meta, requestsTo } from '../support/mcp';

const { rpc } = requestsTo(defaultsUrl());

const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';

describe('_meta validation', () => {
  const cases: [string, Record<string, unknown> | undefined, RegExp][] = [
    ['no _meta', undefined, /_meta is required/],
    ['_meta that is not an object', { _meta: 'x' }, /_meta is required/],
    ['no protocolVersion', { _meta: { [CAPS]: {} } }, /protocolVersion/],
    ['a numeric protocolVersion', { _meta: { [V]: 20260728, [CAPS]: {} } }, /protocolVersion/],
    ['no clientCapabilities', { _meta: { [V]: '2026-07-28' } }, /clientCapabilities/],
    ['clientCapabilities that is an array', { _meta: { [V]: '2026-07-28', [CAPS]: [] } }, /clientCapabilities/],
    ['clientInfo without a version', { _meta: { ...meta(), [INFO]: { name: 'x' } } }, /clientInfo/],
    ['clientInfo that is a string', { _meta: { ...meta(), [INFO]: 'x' } }, /clientInfo/],
    ['an unknown log level', { _meta: meta({ 'io.modelcontextprotocol/logLevel': 'loud' }) }, /logLevel/],
  ];
  it.each(cases)('answers %s with 400 and -32602 naming the field', async (_, params, message) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'server/discover', ...(params ? { params } : {}) });
    const { status, body: reply } = await rpc('server/discover', { body });
    expect(status).toBe(400);
    expect(reply.id).toBe(5);
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toMatch(message);
  });

  it('accepts a request without clientInfo', async () => {
    const _meta = { [V]: '2026-07-28', [CAPS]: {} };
    const { status } = await rpc('server/discover', { params: { _meta } });
    expect(status).toBe(200);
  });
});

describe('protocol version', () => {
  it.each(['server/discover', 'tools/list', 'tools/call', 'no/such/method'])(
    'answers an unsupported version on %s with 400, -32022, supported and requested',
    async (method) => {
      const params = { name: 'sum', arguments: { a: 1, b: 1 }, _meta: meta({ [V]: '1900-01-01' }) };
      const { status, body } = await rpc(method, { params, headers: { 'MCP-Protocol-Version': '1900-01-01' } });
      expect(status).toBe(400);
      expect(body.error?.data.supported[0]).toBe('2026-07-28');
      expect(body.error).toEqual({
        code: -32022,
        message: 'Unsupported protocol version',
        // every version served: the modern ones first, then the legacy ones (legacy serving is on)
        data: { supported: expect.arrayContaining(['2026-07-28', '2025-11-25']), requested: '1900-01-01' },
      });
    },
  );

  it('answers an unknown method with 404 and -32601', async () => {
    const { status, body } = await rpc('tools/frobnicate', { id: 'x' });
    expect(status).toBe(404);
    expect(body).toMatchObject({ id: 'x', error: { code: -32601 } });
  });

  it.each(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe'])(
    'answers %s, removed in 2026-07-28, with 404 and -32601',
    async (method) => {
      const { status, body } = await rpc(method, { id: 500 });
      expect(status).toBe(404);
      expect(body).toMatchObject({ id: 500, error: { code: -32601 } });
    },
  );

  it('treats inherited property names as unknown methods', async () => {
    const { status } = await rpc('constructor', { headers: mcpHeaders('constructor') });
    expect(status).toBe(404);
  });
});
