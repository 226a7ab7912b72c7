/**
 * A request's own SSE stream (src/http/steps/serveMcp.ts), served in process through the whole
 * pipeline, with a client that reads nothing until the handler is done: what the stream holds
 * for it stays bounded in bytes (`MAX_UNREAD_BYTES`, src/http/transport/stream.ts), however many
 * notifications the handler sends and however long the progress token each one echoes.
 */
import { describe, expect, it } from 'vitest';
import { MAX_UNREAD_BYTES } from '../../../../src/http/transport/stream';
import { defineTool, text } from '../../../../src/mcp';
import { createWorker, type WorkerEnv } from '../../../../src/worker';
import { mcpHeaders, meta, sseMessages } from '../../../support/mcp';

const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const env = { MCP_STATE_SECRET: 'serve mcp', REQUEST_LOGS: 'off' } as unknown as WorkerEnv;
const PROGRESS = 300;

const chatty = defineTool({
  name: 'chatty',
  inputSchema: { type: 'object' },
  handler: ({}, { progress }) => {
    for (let step = 1; step <= PROGRESS; step++) progress(step, PROGRESS);
    return text('done');
  },
});
const worker = createWorker({ info: { name: 'serve-mcp', version: '1.0.0' }, tools: [chatty] });

describe('a request whose handler sends more than its client reads', () => {
  it(`holds at most ${MAX_UNREAD_BYTES} bytes of notifications and one more, then sends the result`, async () => {
    const progressToken = `token-${'t'.repeat(20_000)}`;
    const response = await worker.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: mcpHeaders('tools/call', 'chatty'),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'chatty', arguments: {}, _meta: meta({ progressToken }) },
        }),
      }),
      env,
      ctx,
    );
    const raw = await response.clone().text();
    const messages = await sseMessages(response);
    const progress = messages.filter((m) => m.method === 'notifications/progress');
    // Every progress notification echoes the 20 KB token: all 300 would be 6 MB.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(PROGRESS);
    expect(progress.every((m) => m.params?.progressToken === progressToken)).toBe(true);
    expect(messages.at(-1)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'done' }] } });
    const resultBytes = JSON.stringify(messages.at(-1)).length + 32;
    expect(new TextEncoder().encode(raw).byteLength).toBeLessThan(MAX_UNREAD_BYTES + 21_000 + resultBytes);
  });
});
