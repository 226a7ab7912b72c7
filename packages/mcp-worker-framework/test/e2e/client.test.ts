/**
 * The official TypeScript clients (@modelcontextprotocol/client, @modelcontextprotocol/sdk) against
 * the defaults fixture in workerd, over real HTTP on loopback.
 */
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { defaults } from '../fixtures/defaults';
import { defaultsUrl } from '../support/mcp';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A transport whose fetch records the MCP method of every request it sends. */
function countingTransport(sent: string[]) {
  return new StreamableHTTPClientTransport(new URL(defaultsUrl()), {
    fetch: (input, init) => {
      sent.push(new Headers(init?.headers).get('Mcp-Method') ?? '(none)');
      return fetch(input, init);
    },
  });
}

function client(mode: 'auto' | 'legacy' | { pin: string }) {
  const c = new Client({ name: 'e2e-client', version: '1.0.0' }, { versionNegotiation: { mode } });
  clients.push(c);
  return c;
}

describe('official client', () => {
  it('in mode auto discovers the server as modern, lists and calls tools', async () => {
    const sent: string[] = [];
    const c = client('auto');
    await c.connect(countingTransport(sent));
    expect(c.getProtocolEra()).toBe('modern');
    expect(c.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(c.getServerVersion()).toEqual(defaults.info);
    expect(c.getDiscoverResult()).toMatchObject({
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });

    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(defaults.tools.map((tool) => tool.name));
    const result = await c.callTool({ name: 'sum', arguments: { a: 20, b: 22 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
    // The client mirrors x-mcp-header parameters it learned from tools/list; the Worker checks them.
    const routed = await c.callTool({ name: 'routed', arguments: { region: 'eu-west', shard: 3 } });
    expect(routed.content).toEqual([{ type: 'text', text: 'routed to eu-west' }]);
    expect(sent).toEqual(['server/discover', 'tools/list', 'tools/call', 'tools/call']);
  });

  it('pinned to 2026-07-28 reconnects from a saved discover result with no round trip', async () => {
    const first = client({ pin: '2026-07-28' });
    await first.connect(new StreamableHTTPClientTransport(new URL(defaultsUrl())));
    const saved = JSON.parse(JSON.stringify(first.getDiscoverResult()));

    const sent: string[] = [];
    const second = client({ pin: '2026-07-28' });
    await second.connect(countingTransport(sent), { prior: { kind: 'modern', discover: saved } });
    expect(sent).toEqual([]);
    const result = await second.callTool({ name: 'sum', arguments: { a: 1, b: 1 } });
    expect(result.structuredContent).toEqual({ sum: 2 });
    expect(sent).toEqual(['tools/call']);
  });

  it('in mode legacy (the default) connects through initialize, statelessly, and calls tools', async () => {
    const sent: string[] = [];
    const c = client('legacy');
    const transport = countingTransport(sent);
    await c.connect(transport);
    expect(c.getProtocolEra()).toBe('legacy');
    expect(c.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(c.getServerVersion()).toEqual(defaults.info);
    expect(transport.sessionId).toBeUndefined();
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(defaults.tools.map((tool) => tool.name));
    expect((await c.callTool({ name: 'sum', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 });
    expect(sent.filter((m) => m !== '(none)')).toEqual([]); // legacy requests carry no Mcp-Method
  });

  it('in mode auto against a modern-only server stays modern; in mode legacy it is told the supported versions', async () => {
    const url = new URL(inject('specModernOnlyUrl'));
    const auto = client('auto');
    await auto.connect(new StreamableHTTPClientTransport(url));
    expect(auto.getProtocolEra()).toBe('modern');
    const legacy = client('legacy');
    const error = await legacy.connect(new StreamableHTTPClientTransport(url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkHttpError);
    expect(String((error as SdkHttpError).message)).toContain('2026-07-28');
  });
});

describe('v1 SDK client (@modelcontextprotocol/sdk), the one most deployed', () => {
  it('connects with initialize, lists and calls tools', async () => {
    const v1 = new ClientV1({ name: 'v1-client', version: '1.0.0' });
    await v1.connect(new StreamableHTTPClientTransportV1(new URL(defaultsUrl())));
    try {
      expect(v1.getServerVersion()).toEqual(defaults.info);
      const { tools } = await v1.listTools();
      expect(tools.map((t) => t.name)).toEqual(defaults.tools.map((tool) => tool.name));
      const result = await v1.callTool({ name: 'sum', arguments: { a: 40, b: 2 } });
      expect(result.structuredContent).toEqual({ sum: 42 });
      const read = await v1.readResource({ uri: 'test://public-doc' });
      expect(read.contents).toEqual([{ uri: 'test://public-doc', text: 'shared' }]);
    } finally {
      await v1.close();
    }
  });
});
