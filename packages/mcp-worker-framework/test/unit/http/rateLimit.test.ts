/**
 * Which limiter counts a request, and when. In process, with limiter bindings that record the
 * keys they are asked about and answer as told: Miniflare's real limiter counts every
 * anonymous request under one key and is shared between concurrent test runs, so it cannot
 * say *which* binding was asked (test/http/auth.test.ts covers the real one end to end).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jwt } from '../../../src/auth';
import type { AuthMode } from '../../../src/http/auth/auth';
import { createRouter } from '../../../src/http/router';
import { edgeServer } from '../../fixtures/edge/server';
import { mcpHeaders, meta } from '../../support/mcp';
import type { WorkerEnv } from '../../../src/env';

afterEach(() => vi.restoreAllMocks());

/** A Rate Limiting binding that records each key and answers `success`. */
const limiter = (success: boolean) => {
  const keys: string[] = [];
  return {
    keys,
    binding: { limit: async ({ key }: { key: string }) => (keys.push(key), { success }) } as unknown as RateLimit,
  };
};
const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const envWith = (vars: Record<string, unknown>) =>
  ({ MCP_STATE_SECRET: 'limits', REQUEST_LOGS: 'off', LEGACY_CLIENTS: 'on', ...vars }) as unknown as WorkerEnv;

function post(body: object, headers: Record<string, string>) {
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '203.0.113.7', ...headers },
    body: JSON.stringify(body),
  });
}

describe('rate limits', () => {
  it('chooses the limiter from the validated method: a header cannot claim to be discover', async () => {
    const general = limiter(true);
    const discover = limiter(true);
    const env = envWith({ MCP_RATE_LIMITER: general.binding, DISCOVER_RATE_LIMITER: discover.binding });
    // A legacy request (no header checks): the header says discover, the body asks for tools/list.
    const response = await createRouter(edgeServer).fetch(
      post(
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { 'MCP-Protocol-Version': '2025-11-25', 'Mcp-Method': 'server/discover' },
      ),
      env,
      ctx,
    );
    expect(response.status).toBe(200);
    expect(general.keys).toEqual(['ip:203.0.113.7']);
    expect(discover.keys).toEqual([]);
    // A real discover goes to its own limiter.
    await createRouter(edgeServer).fetch(
      post(
        { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta() } },
        mcpHeaders('server/discover'),
      ),
      env,
      ctx,
    );
    expect(discover.keys).toEqual(['ip:203.0.113.7']);
  });

  it('refuses a flood by client address before any token is verified', async () => {
    const address = limiter(false);
    const verifyJwt = vi.fn<AuthMode['verify']>(async () => undefined);
    const env = envWith({
      AUTH_MODE: 'jwt',
      AUTH_ISSUER: 'https://issuer.example.com',
      AUTH_RESOURCE: 'https://mcp.example.com/mcp',
      ADDRESS_RATE_LIMITER: address.binding,
    });
    const response = await createRouter(edgeServer, [{ ...jwt, verify: verifyJwt }]).fetch(
      post(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } },
        { ...mcpHeaders('tools/list'), Authorization: 'Bearer not-a-token' },
      ),
      env,
      ctx,
    );
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect(address.keys).toEqual(['ip:203.0.113.7']);
    expect(verifyJwt).not.toHaveBeenCalled();
  });

  it("refuses a call the caller may not make (a scope its token lacks) before the caller's limit counts it", async () => {
    const general = limiter(true);
    const verifyJwt = vi.fn<AuthMode['verify']>(async () => ({
      subject: 'octo',
      kind: 'person',
      scopes: ['mcp:read'],
      claims: {},
    }));
    const env = envWith({
      AUTH_MODE: 'jwt',
      AUTH_ISSUER: 'https://issuer.example.com',
      AUTH_RESOURCE: 'https://mcp.example.com/mcp',
      MCP_RATE_LIMITER: general.binding,
    });
    const response = await createRouter(edgeServer, [{ ...jwt, verify: verifyJwt }]).fetch(
      post(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'admin_only', _meta: meta() } },
        { ...mcpHeaders('tools/call', 'admin_only'), Authorization: 'Bearer a-token' },
      ),
      env,
      ctx,
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="mcp:admin"/);
    expect(general.keys).toEqual([]);
  });

  it('logs the 429 like any other refusal', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const env = envWith({ REQUEST_LOGS: 'on', MCP_RATE_LIMITER: limiter(false).binding });
    const response = await createRouter(edgeServer).fetch(
      post({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: meta() } }, mcpHeaders('tools/list')),
      env,
      ctx,
    );
    expect(response.status).toBe(429);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        'http.response.status_code': 429,
        'mcp.method.name': 'tools/list',
        'rpc.jsonrpc.error_code': -32600,
        'jsonrpc.request.id': '9',
      }),
    ]);
  });
});
