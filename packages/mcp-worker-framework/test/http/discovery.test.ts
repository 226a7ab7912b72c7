/**
 * How the server is found (spec extensions/server-card, SEP-2127; docs/discovery.md): the
 * Server Card at /mcp/server-card and the AI Catalog at /.well-known/ai-catalog.json, served
 * by the edge fixture in workerd. The card is checked with the extension's own schema.json
 * (copied into test/spec/server-card with its examples), and against what server/discover says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/http/router';
import { createServer } from '../../src/mcp';
import { testClient, type WorkerInWorkerd } from '../../src/testing';
import { startEdge } from './edge';
import type { WorkerEnv } from '../../src/env';

const here = new URL('../spec/server-card/', import.meta.url);
const schema = JSON.parse(readFileSync(new URL('schema.json', here), 'utf8'));
const isServerCard = new Ajv2020({ strict: false }).compile({ ...schema, $ref: '#/$defs/ServerCard' });
const examples = (kind: 'valid' | 'invalid') =>
  readdirSync(new URL(`examples/ServerCard/${kind}/`, here)).map(
    (file) => [file, JSON.parse(readFileSync(new URL(`examples/ServerCard/${kind}/${file}`, here), 'utf8'))] as const,
  );

let worker: WorkerInWorkerd;
let off: WorkerInWorkerd;
beforeAll(async () => {
  [worker, off] = await Promise.all([startEdge(), startEdge({ AI_CATALOG: 'off', LEGACY_CLIENTS: 'off' })]);
}, 120_000);
afterAll(() => Promise.all([worker?.dispose(), off?.dispose()]));

const get = (base: WorkerInWorkerd, path: string, headers: Record<string, string> = {}) =>
  fetch(`${base.url}${path}`, { headers });

describe('the schema the card is checked with', () => {
  it.each(examples('valid'))('accepts the valid example %s', (_, card) => expect(isServerCard(card)).toBe(true));
  it.each(examples('invalid'))('refuses the invalid example %s', (_, card) => expect(isServerCard(card)).toBe(false));
});

describe('Server Card (GET /mcp/server-card)', () => {
  it('is a valid Server Card that says what server/discover says, with the endpoint it was fetched from', async () => {
    const response = await get(worker, '/mcp/server-card');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/mcp-server-card+json');
    const card = (await response.json()) as Record<string, any>;
    expect(isServerCard(card), JSON.stringify(isServerCard.errors)).toBe(true);
    const { result } = await testClient(worker).discover();
    const info = result._meta?.['io.modelcontextprotocol/serverInfo'];
    expect(card).toMatchObject({
      name: 'com.example.fixture/edge',
      version: info?.version,
      title: info?.title,
      websiteUrl: 'https://example.com/edge',
    });
    expect(card.remotes).toEqual([
      { type: 'streamable-http', url: `${worker.url}/mcp`, supportedProtocolVersions: result.supportedVersions },
    ]);
    const modernOnly = (await (await get(off, '/mcp/server-card')).json()) as Record<string, any>;
    expect(modernOnly.remotes[0].supportedProtocolVersions).toEqual(
      (await testClient(off).discover()).result.supportedVersions,
    );
  });

  it('is cached publicly and revalidated by its ETag (304)', async () => {
    const first = await get(worker, '/mcp/server-card');
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=3600');
    const again = await get(worker, '/mcp/server-card', { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await get(worker, '/mcp/server-card', { 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('is plain JSON to a client that asks only for that', async () => {
    expect((await get(worker, '/mcp/server-card', { Accept: 'application/json' })).headers.get('Content-Type')).toBe(
      'application/json',
    );
    expect(
      (
        await get(worker, '/mcp/server-card', { Accept: 'application/mcp-server-card+json, application/json' })
      ).headers.get('Content-Type'),
    ).toBe('application/mcp-server-card+json');
  });

  it('is readable from any origin, without credentials, while /mcp still refuses that origin', async () => {
    const response = await get(worker, '/mcp/server-card', { Origin: 'https://elsewhere.example' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Access-Control-Expose-Headers')).toBe('ETag');
    expect(response.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    const preflight = await fetch(`${worker.url}/mcp/server-card`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect([preflight.status, preflight.headers.get('Access-Control-Allow-Methods')]).toEqual([204, 'GET']);
    const mcp = await fetch(`${worker.url}/mcp`, {
      method: 'POST',
      headers: { Origin: 'https://elsewhere.example', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(403);
  });

  it('answers another method with 405', async () => {
    const response = await fetch(`${worker.url}/mcp/server-card`, { method: 'POST' });
    expect([response.status, response.headers.get('Allow')]).toEqual([405, 'GET, OPTIONS']);
  });
});

describe('AI Catalog (GET /.well-known/ai-catalog.json)', () => {
  it('lists this server, pointing at its card', async () => {
    const response = await get(worker, '/.well-known/ai-catalog.json');
    expect(response.headers.get('Content-Type')).toBe('application/ai-catalog+json');
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(await response.json()).toEqual({
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:air:127.0.0.1:mcp:edge',
          type: 'application/mcp-server-card+json',
          url: `${worker.url}/mcp/server-card`,
        },
      ],
    });
  });

  it('is not served with AI_CATALOG = "off" (a Worker on a shared domain), while the card still is', async () => {
    expect((await get(off, '/.well-known/ai-catalog.json')).status).toBe(404);
    expect((await get(off, '/mcp/server-card')).status).toBe(200);
  });
});

describe('a server without a card', () => {
  const bare = createRouter(createServer({ info: { name: 'no-card', version: '0' } }));
  const env = { MCP_STATE_SECRET: 'x' } as unknown as WorkerEnv;
  const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
  it('serves neither document', async () => {
    for (const path of ['/mcp/server-card', '/.well-known/ai-catalog.json'])
      expect((await bare.fetch(new Request(`http://localhost${path}`), env, ctx)).status).toBe(404);
  });

  it('refuses at load a card whose name is not in reverse-DNS form', () => {
    expect(() =>
      createServer({ info: { name: 'x', version: '0' }, card: { name: 'no-slash', description: 'x' } }),
    ).toThrow(/card.name "no-slash" must be a reverse-DNS namespace and a name/);
  });
});
