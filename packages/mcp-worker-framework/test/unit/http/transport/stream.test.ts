/** The SSE stream behind progress and listen: events, heartbeat comments, and cancellation. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventStream } from '../../../../src/http/transport/stream';

afterEach(() => vi.useRealTimers());

const drain = async (reader: ReadableStreamDefaultReader<Uint8Array>, chunks: number) => {
  let text = '';
  for (let i = 0; i < chunks; i++) text += new TextDecoder().decode((await reader.read()).value);
  return text;
};

describe('EventStream', () => {
  it('sends events and a comment per heartbeat, then stops on close', async () => {
    vi.useFakeTimers();
    const stream = new EventStream(1000, () => {});
    const reader = stream.response.body!.getReader();
    stream.send('{"a":1}');
    vi.advanceTimersByTime(2000);
    expect(await drain(reader, 3)).toBe('event: message\ndata: {"a":1}\n\n:\n\n:\n\n');
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
});
