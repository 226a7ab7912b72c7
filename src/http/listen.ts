/**
 * The `subscriptions/listen` stream (spec 2026-07-28 basic/patterns/subscriptions): the
 * acknowledgement first, SSE comments as keep-alive while it is quiet, and, when the
 * server ends it, the closing result before the stream closes. Nothing is stored anywhere.
 */
import type { Listen } from '../mcp/server';
import type { JSONRPCNotification, RequestId } from '../mcp/types';
import { tooManyStreams } from '../mcp/errors';
import { errorResponse, notificationJson, replyJson } from './respond';
import { EventStream } from './stream';

/** A comment every 15 s keeps intermediaries from closing a quiet stream (spec streamable-http). */
export const LISTEN_KEEPALIVE_MS = 15_000;

/** Listen streams open in this isolate: bounded, since each holds a connection and two timers. */
let open = 0;

export function listenResponse(id: RequestId, listen: Listen, maxMs: number, maxStreams: number): Response {
  if (open >= maxStreams) {
    for (const feed of listen.feeds ?? []) void feed.cancel();
    const refused = errorResponse(id, tooManyStreams(maxStreams));
    refused.headers.set('Retry-After', String(Math.ceil(LISTEN_KEEPALIVE_MS / 1000)));
    return refused;
  }
  open++;
  let end: ReturnType<typeof setTimeout> | undefined;
  const readers = (listen.feeds ?? []).map((feed) => feed.getReader());
  const stopFeeds = () => readers.forEach((reader) => void reader.cancel().catch(() => {}));
  const closed = () => {
    open--;
    if (end !== undefined) clearTimeout(end);
    stopFeeds();
  };
  const stream = new EventStream(LISTEN_KEEPALIVE_MS, closed);
  stream.send(notificationJson(listen.acknowledgement));
  for (const reader of readers) void forward(reader, stream);
  end = setTimeout(() => {
    stopFeeds();
    stream.send(replyJson(id, { result: listen.closing }));
    stream.close();
    open--;
  }, maxMs);
  return stream.response;
}

/** Sends a feed's notifications on the stream until either ends. */
async function forward(reader: ReadableStreamDefaultReader<JSONRPCNotification>, stream: EventStream): Promise<void> {
  try {
    for (let next = await reader.read(); !next.done && !stream.closed; next = await reader.read()) stream.send(notificationJson(next.value));
  } catch {
    // the feed's source went away (its task expired): nothing more will come from it
  }
}
