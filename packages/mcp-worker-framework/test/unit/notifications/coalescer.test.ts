/** How a coordinator bounds a notify flood (src/notifications/coalescer.ts), on fake timers: no clock is read. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Coalescer } from '../../../src/notifications/coalescer';

afterEach(() => vi.useRealTimers());

/** A coalescer whose fan-outs are recorded; `failWith` makes the next ones reject. */
function recorded(maxPending = 1_000) {
  const fanOuts: string[][] = [];
  let failure: Error | undefined;
  const coalescer = new Coalescer(100, maxPending, async (topics) => {
    fanOuts.push([...topics]);
    if (failure) throw failure;
  });
  return { coalescer, fanOuts, failWith: (error: Error | undefined) => void (failure = error) };
}

describe('Coalescer', () => {
  it('fans a change out at once when nothing went out in the last window', async () => {
    vi.useFakeTimers();
    const { coalescer, fanOuts } = recorded();
    await coalescer.publish('list:tools');
    expect(fanOuts).toEqual([['list:tools']]);
  });

  it('merges what comes within the window into one fan-out at its end, each change once, and settles every caller then', async () => {
    vi.useFakeTimers();
    const { coalescer, fanOuts } = recorded();
    await coalescer.publish('resource:a');
    const waiting = [
      coalescer.publish('resource:a'),
      coalescer.publish('resource:b'),
      coalescer.publish('resource:a'),
      coalescer.publish('list:tools'),
    ];
    let settled = 0;
    for (const call of waiting) void call.then(() => settled++);
    await vi.advanceTimersByTimeAsync(99);
    expect(fanOuts).toHaveLength(1);
    expect(settled).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(waiting);
    expect(fanOuts).toEqual([['resource:a'], ['resource:a', 'resource:b', 'list:tools']]);
  });

  it('sends a flood of one change once per window, however many calls', async () => {
    vi.useFakeTimers();
    const { coalescer, fanOuts } = recorded();
    const calls: Promise<void>[] = [];
    for (let ms = 0; ms < 1_000; ms += 5) {
      calls.push(coalescer.publish('resource:hot'));
      await vi.advanceTimersByTimeAsync(5);
    }
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(calls);
    expect(calls).toHaveLength(200);
    expect(fanOuts.length).toBeLessThanOrEqual(11);
  });

  it('closes the window when nothing came: the next change goes out at once again', async () => {
    vi.useFakeTimers();
    const { coalescer, fanOuts } = recorded();
    await coalescer.publish('list:tools');
    await vi.advanceTimersByTimeAsync(100);
    await coalescer.publish('list:prompts');
    expect(fanOuts).toEqual([['list:tools'], ['list:prompts']]);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('refuses a change past the distinct changes a window holds, and still takes one it already holds', async () => {
    vi.useFakeTimers();
    const { coalescer } = recorded(2);
    await coalescer.publish('resource:0');
    const held = [coalescer.publish('resource:1'), coalescer.publish('resource:2')];
    await expect(coalescer.publish('resource:3')).rejects.toThrow(/2 changes already wait/);
    held.push(coalescer.publish('resource:1'));
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(held);
  });

  it('rejects every caller of a fan-out that failed, with its failure', async () => {
    vi.useFakeTimers();
    const { coalescer, failWith } = recorded();
    await coalescer.publish('resource:a');
    failWith(new Error('1 of 8 hub shards did not take the change'));
    const waiting = [coalescer.publish('resource:a'), coalescer.publish('resource:b')];
    const outcomes = Promise.allSettled(waiting);
    await vi.advanceTimersByTimeAsync(100);
    expect((await outcomes).map((o) => o.status)).toEqual(['rejected', 'rejected']);
    await expect(waiting[0]).rejects.toThrow(/1 of 8 hub shards/);
  });
});
