/**
 * A tool's time limit cancels its upstream call: the handler's `signal` aborts, and the fetch it
 * passed the signal to is abandoned, as the upstream sees it (its connection closes).
 *
 * In process, not in workerd: workerd itself cancels every subrequest still open when a request
 * has been answered, so there the upstream would see the close even if the time limit never
 * aborted the signal, and the test could not fail. Here nothing but the abort closes it. The
 * upstream is a loopback server of this file, so no other test can close its connections.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../../src/http/router';
import { edgeServer } from '../../fixtures/edge/server';
import { mcpHeaders, meta } from '../../support/mcp';
import type { WorkerEnv } from '../../../src/env';

const upstream = { started: 0, abandoned: 0 };
let server: Server;
let env: WorkerEnv;

beforeAll(async () => {
  // Never answers; counts the requests whose caller went away.
  server = createServer((req) => {
    upstream.started++;
    req.socket.on('close', () => upstream.abandoned++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env = { UPSTREAM_URL: upstreamUrl, MCP_STATE_SECRET: 'time limit test', REQUEST_LOGS: 'off' } as unknown as WorkerEnv;
});
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

describe('tool time limit', () => {
  it('answers with a tool error at the limit and aborts the upstream call', async () => {
    const router = createRouter(edgeServer);
    const started = Date.now();
    const response = await router.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: mcpHeaders('tools/call', 'upstream_hangs'),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'upstream_hangs', arguments: {}, _meta: meta() },
        }),
      }),
      env,
      { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringMatching(/did not finish within 0.3 s/) }] },
    });
    expect(upstream.started).toBe(1);
    const deadline = Date.now() + 10_000; // generous: only a failing test waits it out
    while (upstream.abandoned < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(upstream.abandoned).toBe(1);
  });
});
