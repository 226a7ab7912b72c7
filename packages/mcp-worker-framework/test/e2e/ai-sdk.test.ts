/**
 * The Vercel AI SDK's MCP client (@ai-sdk/mcp) against the MCP Apps fixture in workerd, over real
 * HTTP on loopback: as a client without a host it lists the UI tool and calls it (the text
 * fallback, spec extensions/apps, Graceful Degradation); as a host it splits model and app tools
 * and reads the view with its own helpers.
 */
import {
  createMCPClient,
  MCP_APP_MIME_TYPE,
  mcpAppClientCapabilities,
  readMCPAppResource,
  splitMCPAppTools,
  type MCPClient,
} from '@ai-sdk/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';

let worker: WorkerInWorkerd;
const clients: MCPClient[] = [];
beforeAll(async () => {
  worker = await startInWorkerd({ config: 'test/fixtures/apps/wrangler.toml', vars: { REQUEST_LOGS: 'off' } });
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await worker?.dispose();
});

async function connect(asHost: boolean): Promise<MCPClient> {
  const client = await createMCPClient({
    transport: { type: 'http', url: `${worker.url}/mcp` },
    ...(asHost ? { capabilities: mcpAppClientCapabilities } : {}),
  });
  clients.push(client);
  return client;
}

describe('@ai-sdk/mcp', () => {
  it('as a client without a host, lists the UI tool and calls it for its text', async () => {
    const client = await connect(false);
    // It probes server/discover first, and speaks 2026-07-28 when the server does.
    expect(client.initializeResult.protocolVersion).toBe('2026-07-28');
    const listed = await client.listTools();
    expect(listed.tools.find((t) => t.name === 'count')?._meta).toEqual({
      ui: { resourceUri: 'ui://fixture/from-assets' },
    });
    const tools = await client.tools();
    const result = await tools.count!.execute({ n: 3 }, { toolCallId: 'call-1', messages: [], context: {} });
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'Counted: 1, 2, 3' }],
      structuredContent: { numbers: [1, 2, 3] },
    });
  });

  it('as a host, keeps the app-only tool from the model and reads the view', async () => {
    const client = await connect(true);
    const { modelVisible, appVisible } = splitMCPAppTools(await client.listTools());
    expect(modelVisible.tools.map((t) => t.name).sort()).toEqual(['count', 'plain']);
    expect(appVisible.tools.map((t) => t.name)).toContain('recount');
    const view = await readMCPAppResource({ client, uri: 'ui://fixture/from-assets' });
    expect(view).toMatchObject({
      uri: 'ui://fixture/from-assets',
      mimeType: MCP_APP_MIME_TYPE,
      meta: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false },
    });
    expect(view.html).toMatch(/^<!doctype html>/i);
  });
});
