/**
 * Which limiter counts a request, and when. In process, with limiter bindings that record the
 * keys they are asked about and answer as told: Miniflare's real limiter counts every
 * anonymous request under one key and is shared between concurrent test runs, so it cannot
 * say *which* binding was asked (test/http/auth.test.ts covers the real one end to end).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JwtVerifier } from '../../src/http/auth';
import { addressKey } from '../../src/http/rateLimit';
import { createRouter } from '../../src/http/router';
import { edgeServer } from '../fixtures/edge/server';
import { mcpHeaders, meta } from '../support/mcp';

afterEach(() => vi.restoreAllMocks());

/** A Rate Limiting binding that records each key and answers `success`. */
const limiter = (success: boolean) => {
  const keys: string[] = [];
  return { keys, binding: { limit: async ({ key }: { key: string }) => (keys.push(key), { success }) } as unknown as RateLimit };
};
const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const envWith = (vars: Record<string, unknown>) => ({ MCP_STATE_SECRET: 'limits', REQUEST_LOGS: 'off', LEGACY_CLIENTS: 'on', ...vars }) as unknown as Env;

function post(body: object, headers: Record<string, string>) {
  return new Request('http://localhost/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '203.0.113.7', ...headers }, body: JSON.stringify(body) });
}

describe('rate limits', () => {
  it('chooses the limiter from the validated method: a header cannot claim to be discover', async () => {
    const general = limiter(true);
    const discover = limiter(true);
    const env = envWith({ MCP_RATE_LIMITER: general.binding, DISCOVER_RATE_LIMITER: discover.binding });
    // A legacy request (no header checks): the header says discover, the body asks for tools/list.
    const response = await createRouter(edgeServer).fetch(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'MCP-Protocol-Version': '2025-11-25', 'Mcp-Method': 'server/discover' }), env, ctx);
    expect(response.status).toBe(200);
    expect(general.keys).toEqual(['ip:203.0.113.7']);
    expect(discover.keys).toEqual([]);
    // A real discover goes to its own limiter.
    await createRouter(edgeServer).fetch(post({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta() } }, mcpHeaders('server/discover')), env, ctx);
    expect(discover.keys).toEqual(['ip:203.0.113.7']);
  });

  it('refuses a flood by client address before any token is verified', async () => {
    const address = limiter(false);
    const verifyJwt = vi.fn<JwtVerifier>(async () => undefined);
    const env = envWith({ AUTH_MODE: 'jwt', AUTH_ISSUER: 'https://issuer.example.com', AUTH_RESOURCE: 'http://localhost/mcp', ADDRESS_RATE_LIMITER: address.binding });
    const response = await createRouter(edgeServer, { verifyJwt }).fetch(
      post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }, { ...mcpHeaders('tools/list'), Authorization: 'Bearer not-a-token' }),
      env,
      ctx,
    );
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect(address.keys).toEqual(['ip:203.0.113.7']);
    expect(verifyJwt).not.toHaveBeenCalled();
  });

  it('logs the 429 like any other refusal', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const env = envWith({ REQUEST_LOGS: 'on', MCP_RATE_LIMITER: limiter(false).binding });
    const response = await createRouter(edgeServer).fetch(post({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: meta() } }, mcpHeaders('tools/list')), env, ctx);
    expect(response.status).toBe(429);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ 'http.response.status_code': 429, 'mcp.method.name': 'tools/list', 'rpc.jsonrpc.error_code': -32600, 'jsonrpc.request.id': '9' }),
    ]);
  });

  it('counts an IPv6 client by its /64: the addresses of one network share one budget', async () => {
    const general = limiter(true);
    const env = envWith({ MCP_RATE_LIMITER: general.binding });
    const network = ['2001:db8:85a3:12::1', '2001:db8:85a3:12:ffff::2', '2001:0db8:85a3:0012:1:2:3:4', '2001:DB8:85A3:12::abcd'];
    for (const address of [...network, '2001:db8:85a3:13::1', '203.0.113.7', '::ffff:203.0.113.7']) {
      const request = post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }, { ...mcpHeaders('tools/list'), 'CF-Connecting-IP': address });
      expect((await createRouter(edgeServer).fetch(request, env, ctx)).status).toBe(200);
    }
    expect(general.keys).toEqual([...network.map(() => 'ip:2001:db8:85a3:12::/64'), 'ip:2001:db8:85a3:13::/64', 'ip:203.0.113.7', 'ip:203.0.113.7']);
  });
});

describe('addressKey', () => {
  const key = (address?: string) => addressKey(new Request('http://localhost/', { headers: address === undefined ? {} : { 'CF-Connecting-IP': address } }));
  it.each([
    ['198.51.100.23', 'ip:198.51.100.23'],
    ['::1', 'ip:0:0:0:0::/64'],
    ['fe80::1:2:3:4', 'ip:fe80:0:0:0::/64'],
    ['2001:db8::', 'ip:2001:db8:0:0::/64'],
    ['::ffff:198.51.100.23', 'ip:198.51.100.23'],
    ['2001:db8:1:2:3:4:198.51.100.23', 'ip:2001:db8:1:2::/64'],
  ])('keys %s as %s', (address, expected) => {
    expect(key(address)).toBe(expected);
  });
  it.each([[undefined], ['not an address'], ['2001:db8::1::2'], ['12345::1'], ['1.2.3.4.5'], ['x'.repeat(5000)]])('keys %s, which is no address, as unknown', (address) => {
    expect(key(address)).toBe('ip:unknown');
  });
});
