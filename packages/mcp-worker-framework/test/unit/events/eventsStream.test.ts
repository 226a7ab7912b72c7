/**
 * `events/stream` (src/events/eventsStream.ts) served in process through the whole pipeline, with
 * a client that reads nothing until the stream is over: it holds no more unread than any stream
 * may (`MAX_UNREAD_BYTES`, src/http/transport/stream.ts), then ends so the client resumes from its cursor;
 * and a request id too long to echo in every message is refused before any stream opens. The
 * event type is backed by `check`, so no Durable Object has events to give: the type's object is
 * only asked for a waiter, and this stand-in's waiter never speaks.
 */
import { describe, expect, it } from 'vitest';
import { defineEventType } from '../../../src/events/defineEventType';
import { eventsExtension } from '../../../src/events/eventsExtension';
import { MAX_UNREAD_BYTES } from '../../../src/http/transport/stream';
import { MAX_STREAM_ID_CHARS } from '../../../src/mcp/methods/listen';
import { createWorker, type WorkerEnv } from '../../../src/worker';
import { mcpHeaders, meta, sseMessages } from '../../support/mcp';

const EVENTS = 300;
const PAD = 20_000;
let checks = 0;

const backlog = defineEventType({
  name: 'backlog.grew',
  description: 'Each check finds 300 large events after any cursor',
  inputSchema: { type: 'object' },
  payloadSchema: { type: 'object', properties: { n: { type: 'number' }, pad: { type: 'string' } } },
  check: (cursor) => {
    checks++;
    if (cursor === null) return { events: [], cursor: '0' };
    return {
      events: Array.from({ length: EVENTS }, (_, n) => ({ eventId: `e${n}`, data: { n, pad: 'p'.repeat(PAD) } })),
      cursor: String(Number(cursor) + EVENTS),
    };
  },
});

/** The type object's namespace: its waiter's socket sends only what `wake()` says (an emit of the type). */
let heard: ((message: { data: string }) => void) | undefined;
const wake = () => heard?.({ data: JSON.stringify({ seq: 1, occurrence: '{}', acceptedAt: Date.now() }) });
const quietObjects = {
  idFromName: () => ({}),
  get: () => ({
    fetch: async () => ({
      status: 101,
      webSocket: {
        accept() {},
        addEventListener(type: string, listener: (message: { data: string }) => void) {
          if (type === 'message') heard = listener;
        },
        close() {},
      },
    }),
  }),
};

const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const env = {
  MCP_STATE_SECRET: 'events stream',
  REQUEST_LOGS: 'off',
  MCP_EVENTS: quietObjects,
} as unknown as WorkerEnv;
const worker = createWorker(
  { info: { name: 'events-stream', version: '1.0.0' } },
  { extensions: [eventsExtension({ types: [backlog] }).extension] },
);

const open = (id: string | number, cursor: string | null, to = worker, name = 'backlog.grew') =>
  to.fetch(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: mcpHeaders('events/stream', name),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'events/stream',
        params: { name, arguments: {}, cursor, _meta: meta() },
      }),
    }),
    env,
    ctx,
  );

describe('an event stream whose client reads nothing', () => {
  it(`holds at most ${MAX_UNREAD_BYTES} bytes and one event more, then ends with the empty result; the last cursor it sent misses nothing`, async () => {
    const response = await open(1, '0');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const raw = await response.clone().text();
    const messages = await sseMessages(response);
    const events = messages.filter((m) => m.method === 'notifications/events/event');
    // All 300 would be 6 MB: the stream stopped far short of them, and said it was over.
    expect(events.length).toBeGreaterThan(0);
    expect(events.length).toBeLessThan(EVENTS);
    expect(messages.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    expect(new TextEncoder().encode(raw).byteLength).toBeLessThan(MAX_UNREAD_BYTES + 2 * (PAD + 500));
    // Cut mid-batch: every event it sent carries the cursor before the batch, so a client resuming
    // from it is given the whole batch again (duplicates collapse by eventId), never a gap.
    expect(new Set(events.map((m) => m.params?.cursor))).toEqual(new Set(['0']));
  });

  it(`refuses an id longer than ${MAX_STREAM_ID_CHARS} characters with -32602 before it asks check`, async () => {
    const before = checks;
    const response = await open('i'.repeat(MAX_STREAM_ID_CHARS + 1), null);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32602);
    expect(checks).toBe(before);
  });
});

/** An upstream with one change, told by its webhook (an emit of the type), with `check` asked again only every ten minutes. */
const upstream: { id: string }[] = [];
const changed = defineEventType({
  name: 'thing.changed',
  description: 'Read by check',
  inputSchema: { type: 'object' },
  payloadSchema: { type: 'object', properties: { id: { type: 'string' } } },
  check: (cursor) => ({
    events: upstream.slice(Number(cursor ?? upstream.length)).map((data) => ({ eventId: data.id, data })),
    cursor: String(upstream.length),
  }),
});
const slowChecks = createWorker(
  { info: { name: 'events-stream-woken', version: '1.0.0' } },
  { extensions: [eventsExtension({ types: [changed], limits: { checkEveryMs: 600_000 } }).extension] },
);

describe('an event stream of a type backed by check', () => {
  it('asks check at once when the type is emitted, not only every checkEveryMs', async () => {
    const response = await open(1, null, slowChecks, 'thing.changed');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (what: string) => {
      while (!text.includes(what)) text += (await reader.read()).value ?? '';
    };
    await until('notifications/events/active');
    upstream.push({ id: 'woken-1' });
    wake();
    await until('woken-1');
    expect(text).toContain('"eventId":"woken-1"');
    await reader.cancel();
  });
});
