/** The SSE stream behind progress and listen: events, heartbeat comments, and cancellation. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventStream, MAX_UNREAD_BYTES } from '../../../../src/http/transport/stream';
import { readChunks } from '../../../support/listen';

afterEach(() => vi.useRealTimers());

describe('EventStream', () => {
  it('sends events and a comment per heartbeat, then stops on close', async () => {
    vi.useFakeTimers();
    const stream = new EventStream(1000, () => {});
    const reader = stream.response.body!.getReader();
    stream.send('{"a":1}');
    vi.advanceTimersByTime(2000);
    expect(await readChunks(reader, 3)).toBe('event: message\ndata: {"a":1}\n\n:\n\n:\n\n');
    stream.close();
    expect((await reader.read()).done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells its owner when the client cancels, and sends nothing after', async () => {
    vi.useFakeTimers();
    const onCancel = vi.fn();
    const stream = new EventStream(1000, onCancel);
    await stream.response.body!.cancel();
    expect(onCancel).toHaveBeenCalledOnce();
    expect(stream.closed).toBe(true);
    stream.send('{}');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts the bytes its client has not read, and forgets them as the client reads', async () => {
    const stream = new EventStream(60_000, () => {});
    const event = (n: number) => `{"n":${n},"pad":"${'x'.repeat(1000)}"}`;
    const size = (n: number) => new TextEncoder().encode(`event: message\ndata: ${event(n)}\n\n`).byteLength;
    for (let n = 0; n < 5; n++) stream.send(event(n));
    expect(stream.unreadBytes).toBe([0, 1, 2, 3, 4].reduce((sum, n) => sum + size(n), 0));
    const reader = stream.response.body!.getReader();
    await reader.read();
    await reader.read();
    expect(stream.unreadBytes).toBe(size(2) + size(3) + size(4));
    expect(stream.behind).toBe(false);
    await reader.read();
    await reader.read();
    await reader.read();
    expect(stream.unreadBytes).toBe(0);
    stream.close();
  });

  it(`is behind once more than ${MAX_UNREAD_BYTES} bytes wait unread, whatever the number of events`, () => {
    const stream = new EventStream(60_000, () => {});
    const big = `"${'b'.repeat(64 * 1024)}"`;
    let sent = 0;
    for (; sent < 100 && !stream.behind; sent++) stream.send(big);
    // The first event past the bound, framing included, makes it behind.
    const eventBytes = big.length + 'event: message\ndata: \n\n'.length;
    expect(sent).toBe(Math.floor(MAX_UNREAD_BYTES / eventBytes) + 1);
    expect(stream.unreadBytes).toBeGreaterThan(MAX_UNREAD_BYTES);
    expect(stream.unreadBytes).toBeLessThanOrEqual(MAX_UNREAD_BYTES + big.length + 32);
    stream.close();
  });
});
