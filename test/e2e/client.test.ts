/**
 * The official TypeScript client (@modelcontextprotocol/client) against the template
 * Worker in workerd, over real HTTP on loopback.
 */
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { templateUrl } from '../support/mcp';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A transport whose fetch records the MCP method of every request it sends. */
function countingTransport(sent: string[]) {
  return new StreamableHTTPClientTransport(new URL(templateUrl()), {
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
    expect(c.getServerVersion()).toMatchObject({ name: 'mcp-worker-template' });
    expect(c.getDiscoverResult()).toMatchObject({ supportedVersions: ['2026-07-28'], ttlMs: 3_600_000, cacheScope: 'public' });

    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['add', 'github_repo', 'current_time']);
    const result = await c.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
    // The client mirrors x-mcp-header parameters it learned from tools/list; the Worker checks them.
    const time = await c.callTool({ name: 'current_time', arguments: { timezone: 'UTC' } });
    expect(time.isError).toBeFalsy();
    expect(sent).toEqual(['server/discover', 'tools/list', 'tools/call', 'tools/call']);
  });

  it('pinned to 2026-07-28 reconnects from a saved discover result with no round trip', async () => {
    const first = client({ pin: '2026-07-28' });
    await first.connect(new StreamableHTTPClientTransport(new URL(templateUrl())));
    const saved = JSON.parse(JSON.stringify(first.getDiscoverResult()));

    const sent: string[] = [];
    const second = client({ pin: '2026-07-28' });
    await second.connect(countingTransport(sent), { prior: { kind: 'modern', discover: saved } });
    expect(sent).toEqual([]);
    const result = await second.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
    expect(result.structuredContent).toEqual({ sum: 2 });
    expect(sent).toEqual(['tools/call']);
  });

  it('in mode legacy is told which versions the server speaks', async () => {
    const c = client('legacy');
    const error = await c.connect(new StreamableHTTPClientTransport(new URL(templateUrl()))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkHttpError);
    expect(String((error as SdkHttpError).message)).toContain('2026-07-28');
  });
});
