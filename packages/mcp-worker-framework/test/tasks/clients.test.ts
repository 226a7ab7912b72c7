/**
 * Clients that do not declare the Tasks extension against a server with task tools: the
 * official TypeScript client (@modelcontextprotocol/client 2.4, no tasks runtime) in both
 * eras, and the 1.x SDK. Task tools run for them as ordinary calls; required ones refuse.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from './harness';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture?.worker.dispose());

const asCarol = { requestInit: { headers: { Authorization: 'Bearer carol' } } };

describe('clients without the Tasks extension', () => {
  for (const mode of ['auto', 'legacy'] as const) {
    it(`the official client in mode ${mode} gets ordinary results from task tools, and -32021 where a task is required`, async () => {
      const client = new Client({ name: 'tasks-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(fixture.url), asCarol));
      try {
        expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('work');
        const result = await client.callTool({ name: 'work', arguments: { ms: 10 } });
        expect(result.content).toEqual([{ type: 'text', text: 'worked 10 ms' }]);
        await expect(client.callTool({ name: 'only_task', arguments: {} })).rejects.toMatchObject({ code: -32021 });
      } finally {
        await client.close();
      }
    });
  }

  it('the 1.x SDK client (initialize) gets ordinary results from task tools', async () => {
    const client = new ClientV1({ name: 'v1-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransportV1(new URL(fixture.url), asCarol));
    try {
      const result = await client.callTool({ name: 'work', arguments: { ms: 10 } });
      expect(result.content).toEqual([{ type: 'text', text: 'worked 10 ms' }]);
    } finally {
      await client.close();
    }
  });
});
