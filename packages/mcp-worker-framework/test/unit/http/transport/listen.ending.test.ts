/**
 * How the server ends a listen stream besides its time limit (src/http/transport/listen.ts): when the
 * source of its notifications asks (`attach`'s `end`: a hub that restarted), and when the client
 * has fallen `LISTEN_MAX_BACKLOG` events or `MAX_UNREAD_BYTES` behind. Either way gracefully: notifications/cancelled,
 * then the closing result (spec 2026-07-28 basic/patterns/subscriptions, Graceful Closure).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openListenStream } from '../../../../src/http/transport/listen';
import { MAX_UNREAD_BYTES } from '../../../../src/http/transport/stream';
import type { Listen } from '../../../../src/mcp/request';
import { listenOf7 } from '../../../support/listen';
import { sseMessages } from '../../../support/mcp';

/** The events a stream may hold for a client that does not read (src/http/transport/listen.ts keeps it unexported). */
const LISTEN_MAX_BACKLOG = 100;

afterEach(() => vi.useRealTimers());

/** A listen whose source is handed to the test: its `send`, its `end`, and how often it was detached. */
function listenWithSource() {
  const source = { send: undefined as unknown as (n: object) => void, end: () => {}, detached: 0 };
  const listen: Listen = {
    ...listenOf7(),
    attach(send, end) {
      source.send = send as (n: object) => void;
      source.end = end;
      return () => void source.detached++;
    },
  };
  return { listen, source };
}

const update = (n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/resources/updated',
  params: { uri: `test://${n}` },
});

describe('a listen stream the server ends early', () => {
  it('ends gracefully when its source asks, detaching it and giving its place back once, however often it asks', async () => {
    vi.useFakeTimers();
    const { listen, source } = listenWithSource();
    let givenBack = 0;
    const stream = openListenStream(7, listen, 600_000, () => void givenBack++);
    source.send(update(1));
    source.end();
    source.end();
    expect((await sseMessages(stream.response)).map((m) => m.method ?? `result of ${String(m.id)}`)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/updated',
      'notifications/cancelled',
      'result of 7',
    ]);
    expect(givenBack).toBe(1);
    expect(source.detached).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it(`ends a client that does not read once ${LISTEN_MAX_BACKLOG} events wait, and holds no more than that`, async () => {
    const { listen, source } = listenWithSource();
    const stream = openListenStream(7, listen, 600_000, () => {});
    for (let n = 0; n < 3 * LISTEN_MAX_BACKLOG; n++) source.send(update(n));
    expect(stream.closed).toBe(true);
    const messages = await sseMessages(stream.response);
    // The acknowledgement, the updates up to the backlog's bound, then the graceful end.
    expect(messages).toHaveLength(1 + LISTEN_MAX_BACKLOG + 2);
    expect(messages.at(-2)?.method).toBe('notifications/cancelled');
    expect(messages.at(-1)).toMatchObject({ id: 7, result: { resultType: 'complete' } });
  });

  it(`ends a client that does not read once more than ${MAX_UNREAD_BYTES} bytes wait, far under the event bound, and holds no more than that and one event`, async () => {
    const { listen, source } = listenWithSource();
    const stream = openListenStream(7, listen, 600_000, () => {});
    // Each update about 10 KB (a long URI, or what an id echoed in every event would make it).
    const big = (n: number) => ({ ...update(n), params: { uri: `test://${n}/${'u'.repeat(10_000)}` } });
    let held = 0;
    for (let n = 0; n < LISTEN_MAX_BACKLOG / 2 && !stream.closed; n++) {
      source.send(big(n));
      held = Math.max(held, stream.unreadBytes);
    }
    expect(stream.closed).toBe(true);
    expect(held).toBeGreaterThan(MAX_UNREAD_BYTES);
    expect(held).toBeLessThan(MAX_UNREAD_BYTES + 11_000);
    const messages = await sseMessages(stream.response);
    const updates = messages.filter((m) => m.method === 'notifications/resources/updated');
    expect(updates.length).toBeLessThan(LISTEN_MAX_BACKLOG / 2);
    expect(messages.at(-2)?.method).toBe('notifications/cancelled');
    expect(messages.at(-1)).toMatchObject({ id: 7, result: { resultType: 'complete' } });
  });

  it('keeps a stream whose client reads, however many events it is sent', async () => {
    const { listen, source } = listenWithSource();
    const stream = openListenStream(7, listen, 600_000, () => {});
    const reader = stream.response.body!.getReader();
    for (let n = 0; n < 3 * LISTEN_MAX_BACKLOG; n++) {
      source.send(update(n));
      await reader.read();
    }
    expect(stream.closed).toBe(false);
    source.end();
    await reader.cancel();
  });
});
