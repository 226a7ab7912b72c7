/**
 * Poll and push (spec extensions/events, Poll-Based and Push-Based Delivery) against the same
 * event types, with the events emitted by another Worker in an isolate of its own that shares the
 * fixture's Durable Objects (./emitter.ts): a long poll answers as soon as the event is kept, a
 * stream forwards it tagged with its request id, and both resume from the cursor they gave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../src/testing';
import { call, type Fixture, startFixture } from './harness';

let worker: Fixture;

beforeAll(async () => {
  worker = await startFixture({}, true);
}, 120_000);
afterAll(async () => {
  await worker?.dispose();
});

const emitElsewhere = async (id: string, severity = 'P1') => {
  const response = await worker
    .neighbour('mcp-events-emitter')
    .fetch(
      new Request('http://emitter/', { method: 'POST', body: JSON.stringify({ id, severity }) }),
      undefined as never,
      undefined as never,
    );
  expect(response.status).toBe(202);
};
const poll = (params: Record<string, unknown>, as = 'pat') =>
  call(worker.mcp, as, 'events/poll', { name: 'incident.created', arguments: { severity: 'P1' }, ...params });

/**
 * The messages of an SSE answer, one at a time, each waited for at most 10 s: `next()` skips
 * heartbeats (they come every `heartbeatMs`), `heartbeat()` takes the next one.
 */
function messagesOf(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const ready: Record<string, any>[] = [];
  const heartbeats: Record<string, any>[] = [];
  const fill = async (queue: Record<string, any>[]) => {
    const deadline = Date.now() + 10_000;
    while (queue.length === 0) {
      if (Date.now() > deadline) throw new Error('no message came');
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
      const events = buffer.split('\n\n');
      buffer = events.pop() ?? '';
      for (const event of events) {
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (!data) continue;
        const message = JSON.parse(data);
        (message.method === 'notifications/events/heartbeat' ? heartbeats : ready).push(message);
      }
    }
    return queue.shift()!;
  };
  return {
    next: () => fill(ready),
    heartbeat: () => fill(heartbeats),
    cancel: () => reader.cancel(),
  };
}

const stream = (params: Record<string, unknown>, as = 'sam') =>
  request(worker.mcp, 'events/stream', params, { as, tasks: false }).then(messagesOf);
const tool = (name: string, args: Record<string, unknown>, as = 'sam') =>
  call(worker.mcp, as, 'tools/call', { name, arguments: args });

describe('poll', () => {
  it('starts from now with a null cursor, then answers a held poll with the event another Worker emits', async () => {
    const first = await poll({ cursor: null });
    expect(first.result).toMatchObject({ events: [], truncated: false, hasMore: false });
    expect(first.result!.nextPollMs).toBeGreaterThan(0);
    const held = poll({ cursor: first.result!.cursor, timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await emitElsewhere('poll-1');
    const answered = await held;
    expect(answered.result!.events.map((e: { eventId: string }) => e.eventId)).toEqual(['poll-1']);
    expect(answered.result!.events[0]).toEqual({
      eventId: 'poll-1',
      name: 'incident.created',
      timestamp: expect.any(String),
      data: { incidentId: 'poll-1', severity: 'P1' },
    });
    expect(answered.result!.cursor).not.toBe(first.result!.cursor);
    // From that cursor: what came after, as the subscription's match keeps it (P2 is not for it).
    await emitElsewhere('poll-2', 'P2');
    await emitElsewhere('poll-3');
    const next = await poll({ cursor: answered.result!.cursor });
    expect(next.result!.events.map((e: { eventId: string }) => e.eventId)).toEqual(['poll-3']);
  });

  it('answers empty when nothing came within timeoutMs, and pages with maxEvents (hasMore)', async () => {
    const { result: now } = await poll({ cursor: null });
    const quiet = await poll({ cursor: now!.cursor, timeoutMs: 200 });
    expect(quiet.result).toMatchObject({ events: [], cursor: now!.cursor, hasMore: false });
    for (const id of ['page-1', 'page-2', 'page-3']) await emitElsewhere(id);
    const page = await poll({ cursor: now!.cursor, maxEvents: 2 });
    expect(page.result!.events.map((e: { eventId: string }) => e.eventId)).toEqual(['page-1', 'page-2']);
    expect(page.result!.hasMore).toBe(true);
    const rest = await poll({ cursor: page.result!.cursor, maxEvents: 2 });
    expect(rest.result!.events.map((e: { eventId: string }) => e.eventId)).toEqual(['page-3']);
    expect(rest.result!.hasMore).toBe(false);
  });

  it('says truncated for a cursor of another epoch, refuses one it never gave (-32602), and an unknown type (-32011)', async () => {
    const stale = await poll({ cursor: 'ffffffff.1' });
    expect(stale.result).toMatchObject({ events: [], truncated: true });
    expect((await poll({ cursor: 'not a cursor' })).error?.code).toBe(-32602);
    expect((await poll({ name: 'nope' })).error).toMatchObject({ code: -32011, data: { kind: 'event' } });
  });
});

describe('stream', () => {
  it('confirms with active, forwards what another Worker emits tagged with its request id, and resumes from the cursor it gave', async () => {
    const response = await request(
      worker.mcp,
      'events/stream',
      { name: 'incident.created', arguments: { severity: 'P1' }, cursor: null },
      { as: 'sam', tasks: false },
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = messagesOf(response);
    const active = await stream.next();
    expect(active.method).toBe('notifications/events/active');
    expect(active.params).toEqual({
      cursor: expect.any(String),
      truncated: false,
      _meta: { 'io.modelcontextprotocol/subscriptionId': 1 },
    });
    await emitElsewhere('push-1', 'P2');
    await emitElsewhere('push-2');
    const event = await stream.next();
    expect(event.method).toBe('notifications/events/event');
    expect(event.params).toMatchObject({
      eventId: 'push-2',
      name: 'incident.created',
      data: { incidentId: 'push-2', severity: 'P1' },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 1 },
    });
    const cursor = event.params.cursor;
    await stream.cancel();
    // Reconnected with the cursor it held: what came meanwhile is replayed first.
    await emitElsewhere('push-3');
    const again = messagesOf(
      await request(
        worker.mcp,
        'events/stream',
        { name: 'incident.created', arguments: { severity: 'P1' }, cursor },
        { as: 'sam', tasks: false },
      ),
    );
    expect((await again.next()).params).toMatchObject({ cursor, truncated: false });
    const replayed = await again.next();
    expect(replayed.params.eventId).toBe('push-3');
    await again.cancel();
  });
});

describe('an event type backed by check (an upstream with a history)', () => {
  const pollTickets = (params: Record<string, unknown>) =>
    call(worker.mcp, 'pat', 'events/poll', { name: 'ticket.updated', arguments: { prefix: 'A' }, ...params });

  it('polls from the upstream’s own position: a held poll answers with what check finds after the cursor, asked again while it waits, as the arguments filter it', async () => {
    const now = await pollTickets({ cursor: null });
    expect(now.result).toMatchObject({ events: [], truncated: false, hasMore: false });
    expect(typeof now.result!.cursor).toBe('string');
    const held = pollTickets({ cursor: now.result!.cursor, timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Added without an emit: only asking check again finds them; B1 is not for a subscription to prefix A.
    await tool('ticket', { id: 'B1', title: 'other', quiet: true });
    await tool('ticket', { id: 'A1', title: 'first', quiet: true });
    const answered = await held;
    expect(answered.result!.events).toEqual([
      {
        eventId: 'ticket-A1',
        name: 'ticket.updated',
        timestamp: expect.any(String),
        data: { id: 'A1', title: 'first' },
      },
    ]);
    expect(answered.result!.cursor).not.toBe(now.result!.cursor);
    await tool('ticket', { id: 'A2', title: 'second' });
    const next = await pollTickets({ cursor: answered.result!.cursor });
    expect(next.result!.events.map((e: { eventId: string }) => e.eventId)).toEqual(['ticket-A2']);
    // From the first cursor again: the upstream still has both.
    const again = await pollTickets({ cursor: now.result!.cursor });
    expect(again.result!.events.map((e: { eventId: string }) => e.eventId)).toEqual(['ticket-A1', 'ticket-A2']);
  });

  it('streams from the upstream’s position: each event check finds with the cursor after it, and heartbeats with the cursor it has checked up to, advanced by what it did not send', async () => {
    const events = await stream({ name: 'ticket.updated', arguments: { prefix: 'S' }, cursor: null });
    const active = await events.next();
    expect(active.method).toBe('notifications/events/active');
    const start = active.params.cursor as string;
    expect(typeof start).toBe('string');
    expect(await events.heartbeat()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/events/heartbeat',
      params: { cursor: start, _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
    });
    await tool('ticket', { id: 'S1', title: 'streamed' });
    const event = await events.next();
    expect(event.method).toBe('notifications/events/event');
    expect(event.params).toMatchObject({ eventId: 'ticket-S1', data: { id: 'S1', title: 'streamed' } });
    const after = event.params.cursor as string;
    expect(after).not.toBe(start);
    // Not for this stream: no event, but the position checked moves past it, and the heartbeat says so.
    const { result } = await tool('ticket', { id: 'X1', title: 'elsewhere', quiet: true });
    const position = result!.content[0].text as string;
    expect(position).not.toBe(after);
    let beat = await events.heartbeat();
    for (let i = 0; i < 20 && beat.params.cursor !== position; i++) beat = await events.heartbeat();
    expect(beat.params.cursor).toBe(position);
    await events.cancel();
    // Reconnected with the first cursor: what check finds after it is sent first.
    const resumed = await stream({ name: 'ticket.updated', arguments: { prefix: 'S' }, cursor: start });
    expect((await resumed.next()).method).toBe('notifications/events/active');
    expect((await resumed.next()).params).toMatchObject({ eventId: 'ticket-S1', cursor: position });
    await resumed.cancel();
  });
});

describe('a stream whose caller loses access', () => {
  it('is sent terminated (-32012) at its next heartbeat, with no event needed, then the empty result', async () => {
    const events = await stream({ name: 'flagged', cursor: null }, 'tess');
    expect((await events.next()).method).toBe('notifications/events/active');
    await tool('show', { shown: false });
    try {
      expect(await events.next()).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/events/terminated',
        params: {
          error: { code: -32012, message: 'Forbidden', data: { reason: 'access revoked' } },
          _meta: { 'io.modelcontextprotocol/subscriptionId': 1 },
        },
      });
      expect(await events.next()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    } finally {
      await tool('show', { shown: true });
    }
  });
});
