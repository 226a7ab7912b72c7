/**
 * `subscriptions/listen` in the core (src/mcp/methods/listen.ts): every message of its stream
 * echoes the request's id, so an id longer than `MAX_STREAM_ID_CHARS` characters of JSON is
 * refused with -32602 before any stream is opened, and one at the bound is served.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../../src/mcp';
import type { RequestId } from '../../../../src/mcp/types';
import { mcpRequest } from '../../../support/request';

const MAX_STREAM_ID_CHARS = 256;
const server = createServer({ info: { name: 'listen', version: '1.0.0' } });
const listen = (id: RequestId) =>
  server.handle(mcpRequest({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: {} } }));

describe('subscriptions/listen and its id', () => {
  it(`serves an id of ${MAX_STREAM_ID_CHARS} characters of JSON, quotes and escapes counted`, async () => {
    expect((await listen('i'.repeat(MAX_STREAM_ID_CHARS - 2))).listen).toBeDefined();
    // Each newline is two characters of JSON: 127 of them and the quotes are 256.
    expect((await listen('\n'.repeat((MAX_STREAM_ID_CHARS - 2) / 2))).listen).toBeDefined();
    expect((await listen(Number('9'.repeat(15)))).listen).toBeDefined();
  });

  it.each([
    ['one character over', 'i'.repeat(MAX_STREAM_ID_CHARS - 1)],
    ['over once escaped', '\n'.repeat(MAX_STREAM_ID_CHARS / 2)],
    ['a megabyte', 'i'.repeat(1_000_000)],
  ])('refuses an id %s with -32602, saying why', async (_, id) => {
    const reply = await listen(id);
    expect(reply.listen).toBeUndefined();
    expect(reply.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining(`at most ${MAX_STREAM_ID_CHARS} characters`),
    });
  });
});
