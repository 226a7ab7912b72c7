/** The SSE stream behind progress and listen: events, heartbeat comments, and cancellation. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openListenStream } from '../../../src/http/listen';
import { EventStream } from '../../../src/http/stream';

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

describe('openListenStream', () => {
  it('acknowledges, keeps alive every 15 s, ends with notifications/cancelled then the closing result, and gives its place back once', async () => {
    vi.useFakeTimers();
    let givenBack = 0;
    const stream = openListenStream(
      7,
      {
        acknowledgement: { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: {} } },
        teardown: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } },
        closing: { resultType: 'complete' },
      },
      40_000,
      () => void givenBack++,
    );
    const reader = stream.response.body!.getReader();
    vi.advanceTimersByTime(40_000);
    const text = await drain(reader, 5);
    expect(text).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{}}}\n\n' +
        ':\n\n:\n\n' +
        'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}\n\n' +
        'event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"resultType":"complete"}}\n\n',
    );
    expect((await reader.read()).done).toBe(true);
    expect(givenBack).toBe(1);
  });
});
