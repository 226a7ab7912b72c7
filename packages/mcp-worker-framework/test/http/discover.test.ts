/** server/discover and the Cache-Control derived from ttlMs and cacheScope (spec 2026-07-28 server/discover, server/utilities/caching). */
import { describe, expect, it } from 'vitest';
import { defaults } from '../fixtures/defaults';
import { defaultsUrl, fixtureUrl, requestsTo } from '../support/mcp';

const { rpc } = requestsTo(defaultsUrl());

describe('server/discover', () => {
  it('answers with versions, served capabilities, instructions, serverInfo and cache hints', async () => {
    const { status, headers, body } = await rpc('server/discover', { id: 'discover-1' });
    expect(status).toBe(200);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 'discover-1',
      result: {
        resultType: 'complete',
        // the modern version, then the legacy ones this deployment also serves (LEGACY_CLIENTS on)
        supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
        capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} },
        instructions: defaults.instructions,
        ttlMs: 3_600_000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': defaults.info },
      },
    });
  });
});

describe('Cache-Control from caching hints', () => {
  it('is public with max-age = floor(ttlMs / 1000) for a public result', async () => {
    expect((await rpc('server/discover')).headers.get('Cache-Control')).toBe('public, max-age=3600');
    expect((await rpc('tools/list')).headers.get('Cache-Control')).toBe('public, max-age=300');
  });

  it('is no-cache when ttlMs is 0, private with Vary: Authorization for a private result', async () => {
    const { headers, body } = await rpc('server/discover', { url: fixtureUrl() });
    expect(body.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(headers.get('Cache-Control')).toBe('private, no-cache');
    expect(headers.get('Vary')).toContain('Authorization');
  });

  it('rounds a sub-minute ttl down to whole seconds', async () => {
    const { headers, body } = await rpc('tools/list', { url: fixtureUrl() });
    expect(body.result).toMatchObject({ ttlMs: 1500, cacheScope: 'private' });
    expect(headers.get('Cache-Control')).toBe('private, max-age=1');
  });

  it('is no-store for tool calls and errors', async () => {
    expect(
      (await rpc('tools/call', { params: { name: 'sum', arguments: { a: 1, b: 1 } } })).headers.get('Cache-Control'),
    ).toBe('no-store');
    expect((await rpc('no/such')).headers.get('Cache-Control')).toBe('no-store');
  });
});
