/**
 * MCP Apps over HTTP (spec extensions/apps; docs/apps.md), against the apps fixture in workerd:
 * the extension advertised to modern and legacy clients, views read from static assets with
 * their caching headers, and a view whose page was never built answered with a 500 that says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atUrl, JsonRpcError, startInWorkerd, testClient, type WorkerInWorkerd } from '../../src/testing';
import { requestsTo } from '../support/mcp';

let worker: WorkerInWorkerd;
let endpoint: string;
beforeAll(async () => {
  worker = await startInWorkerd({ config: 'test/fixtures/apps/wrangler.toml', vars: { REQUEST_LOGS: 'off' } });
  endpoint = `${worker.url}/mcp`;
}, 120_000);
afterAll(() => worker?.dispose());

const HOST = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

describe('a server with views', () => {
  it('advertises io.modelcontextprotocol/ui in discover', async () => {
    const { result } = await testClient(atUrl(endpoint)).discover();
    expect(result.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': {} } });
  });

  it("advertises it in a legacy client's initialize result too", async () => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: HOST, clientInfo: { name: 'old-host', version: '1' } },
      }),
    });
    const body = (await response.json()) as { result: { capabilities: object } };
    expect(body.result.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': {} } });
  });

  it('lists the UI tools with _meta.ui to a legacy client too, and gives it the view', async () => {
    const legacy = (method: string, params: object) =>
      fetch(endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }).then(
        (r) =>
          r.json() as Promise<{
            result: { tools: { name: string; _meta?: object }[]; contents: { mimeType: string }[] };
          }>,
      );
    const { tools } = (await legacy('tools/list', {})).result;
    expect(tools.find((t) => t.name === 'recount')?._meta).toEqual({
      ui: { resourceUri: 'ui://fixture/from-assets', visibility: ['app'] },
    });
    expect((await legacy('resources/read', { uri: 'ui://fixture/from-assets' })).result.contents[0]?.mimeType).toBe(
      'text/html;profile=mcp-app',
    );
  });

  it('reads a view from static assets with its MIME type, _meta.ui and a day of public caching', async () => {
    const { result, headers, status } = await testClient(atUrl(endpoint)).readResource('ui://fixture/from-assets', {
      capabilities: HOST,
    });
    expect(status).toBe(200);
    expect(result.contents).toEqual([
      {
        uri: 'ui://fixture/from-assets',
        mimeType: 'text/html;profile=mcp-app',
        text: expect.stringContaining("The fixture's view, read from static assets."),
        _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false } },
      },
    ]);
    expect(result).toMatchObject({ ttlMs: 86_400_000, cacheScope: 'public' });
    expect(headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('answers a view whose page was never built with a 500 naming ASSETS and the build', async () => {
    const { rpc } = requestsTo(endpoint);
    const { status, body } = await rpc('resources/read', { params: { uri: 'ui://fixture/unbuilt' } });
    expect(status).toBe(500);
    expect(body.error).toMatchObject({ code: -32603, data: { setting: 'ASSETS' } });
    expect(body.error?.message).toMatch(
      /ASSETS has no views\/never-built.html \(404\): views\/never-built\/ is built into it by npm run build:views/,
    );
  });

  it('answers a UI tool with text and data to a client without the extension', async () => {
    const { result } = await testClient(atUrl(endpoint)).callTool('count', { n: 2 });
    expect(result.content).toEqual([{ type: 'text', text: 'Counted: 1, 2' }]);
    expect(result.structuredContent).toEqual({ numbers: [1, 2] });
  });

  it('refuses a resource URI no view has, as any unknown resource', async () => {
    await expect(testClient(atUrl(endpoint)).readResource('ui://fixture/nowhere')).rejects.toSatisfy(
      (e) => e instanceof JsonRpcError && e.code === -32602,
    );
  });
});
