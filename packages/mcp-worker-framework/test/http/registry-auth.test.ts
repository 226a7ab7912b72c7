/**
 * GET /.well-known/mcp-registry-auth: the proof the official MCP Registry fetches when a publisher
 * logs in with `mcp-publisher login http --domain <this host>` (docs/discovery.md, "Publishing"),
 * served from the MCP_REGISTRY_AUTH setting: plain text, 200, no redirect; 404 when unset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/http/router';
import { createServer } from '../../src/mcp';
import type { WorkerInWorkerd } from '../../src/testing';
import { startEdge } from './edge';
import type { WorkerEnv } from '../../src/env';

const PROOF = 'v=MCPv1; k=ed25519; p=MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=';
const router = createRouter(createServer({ info: { name: 'registry-auth', version: '1.0.0' } }));
const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const get = (vars: Record<string, string>, init: RequestInit = {}) =>
  router.fetch(
    new Request('https://mcp.example.com/.well-known/mcp-registry-auth', {
      headers: { Accept: 'text/plain', 'User-Agent': 'mcp-registry/1.0' },
      ...init,
    }),
    { MCP_STATE_SECRET: 'x', ...vars } as unknown as WorkerEnv,
    ctx,
  );

describe('GET /.well-known/mcp-registry-auth', () => {
  it('answers the proof line of MCP_REGISTRY_AUTH as plain text, as the registry asks for it', async () => {
    const response = await get({ MCP_REGISTRY_AUTH: PROOF });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe(PROOF);
  });

  it('is a 404 when MCP_REGISTRY_AUTH is unset', async () => {
    expect((await get({})).status).toBe(404);
  });

  it('answers another method with 405', async () => {
    const response = await get({ MCP_REGISTRY_AUTH: PROOF }, { method: 'POST' });
    expect([response.status, response.headers.get('Allow')]).toEqual([405, 'GET, OPTIONS']);
  });

  it('refuses to serve at all when MCP_REGISTRY_AUTH is no proof line, naming the setting', async () => {
    const response = await get({ MCP_REGISTRY_AUTH: 'p=only-a-key' });
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).toContain('MCP_REGISTRY_AUTH');
  });
});

describe('in workerd, as deployed', () => {
  let worker: WorkerInWorkerd;
  beforeAll(async () => {
    worker = await startEdge({ MCP_REGISTRY_AUTH: PROOF });
  }, 60_000);
  afterAll(() => worker?.dispose());

  it("answers the registry's own request with the proof, with no redirect", async () => {
    const response = await fetch(`${worker.url}/.well-known/mcp-registry-auth`, {
      headers: { Accept: 'text/plain', 'User-Agent': 'mcp-registry/1.0' },
      redirect: 'manual',
    });
    expect([response.status, response.headers.get('Content-Type'), await response.text()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      PROOF,
    ]);
  });
});
