/**
 * Listen streams (src/http/transport/listen.ts): the places in one isolate (the isolate's limit, and each
 * client's share of it), and the stream's life from acknowledgement to closing result.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientShare, openListenStream, takeListenSlot, type ListenSlot } from '../../../../src/http/transport/listen';
import { McpError } from '../../../../src/mcp/errors';
import { listenOf7, readChunks } from '../../../support/listen';

afterEach(() => vi.useRealTimers());

/** Takes a place, failing the test when refused. */
function take(client: string, maxStreams: number): ListenSlot {
  const slot = takeListenSlot(client, maxStreams);
  if (slot instanceof McpError) throw new Error(`refused: ${slot.message}`);
  return slot;
}

describe('listen slots', () => {
  it('gives each client a quarter of the limit, at least one', () => {
    expect([1, 2, 3, 4, 8, 100].map(clientShare)).toEqual([1, 1, 1, 1, 2, 25]);
  });

  it('refuses a client past its share with 429, while others still get places up to the limit', () => {
    const held = [take('ip:a', 8), take('ip:a', 8)];
    const refused = takeListenSlot('ip:a', 8);
    expect(refused).toMatchObject({
      kind: 'rateLimited',
      retryAfterSeconds: 15,
      message: expect.stringMatching(/limit 2 per client/),
    });
    held.push(
      take('ip:b', 8),
      take('ip:b', 8),
      take('principal:c', 8),
      take('principal:c', 8),
      take('ip:d', 8),
      take('ip:d', 8),
    );
    expect(takeListenSlot('ip:e', 8)).toMatchObject({
      kind: 'rateLimited',
      retryAfterSeconds: 15,
      message: expect.stringMatching(/limit 8\)/),
    });
    held.forEach((slot) => slot());
  });

  it('frees a place once, however often it is given back', () => {
    const first = take('ip:a', 2);
    first();
    first();
    const again = take('ip:a', 2);
    const other = take('ip:b', 2);
    // Had the double give-back freed two places, a third client would get one here.
    expect(takeListenSlot('ip:c', 2)).toBeInstanceOf(McpError);
    again();
    other();
  });
});

describe('openListenStream', () => {
  it('acknowledges, keeps alive every 15 s, ends with notifications/cancelled then the closing result, and gives its place back once', async () => {
    vi.useFakeTimers();
    let givenBack = 0;
    const stream = openListenStream(7, listenOf7(), 40_000, () => void givenBack++);
    const reader = stream.response.body!.getReader();
    vi.advanceTimersByTime(40_000);
    const text = await readChunks(reader, 5);
    expect(text).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{}}}\n\n' +
        ':\n\n:\n\n' +
        'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}\n\n' +
        'event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"resultType":"complete"}}\n\n',
    );
    expect((await reader.read()).done).toBe(true);
    expect(givenBack).toBe(1);
  });

  const listen = listenOf7();

  it("ends at its caller's expiry when that comes first, gracefully, and at its time limit otherwise", () => {
    vi.useFakeTimers();
    const expiring = openListenStream(7, listen, 600_000, () => {}, Date.now() + 5_000);
    const later = openListenStream(8, listen, 600_000, () => {}, Date.now() + 900_000);
    const endless = openListenStream(9, listen, 600_000, () => {}); // a shared secret (bearer) has no expiry
    vi.advanceTimersByTime(4_999);
    expect(expiring.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(expiring.closed).toBe(true);
    vi.advanceTimersByTime(600_000 - 5_001);
    expect([later.closed, endless.closed]).toEqual([false, false]);
    vi.advanceTimersByTime(1);
    expect([later.closed, endless.closed]).toEqual([true, true]);
  });

  it('ends at once for a caller whose credential has expired already (within the clock skew a verifier allows)', () => {
    vi.useFakeTimers();
    const stream = openListenStream(7, listen, 600_000, () => {}, Date.now() - 10_000);
    vi.advanceTimersByTime(0);
    expect(stream.closed).toBe(true);
  });
});
