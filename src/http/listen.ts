/**
 * The `subscriptions/listen` stream (spec 2026-07-28 basic/patterns/subscriptions): the
 * acknowledgement first, SSE comments as keep-alive while it is quiet, and, when the
 * server ends it, `notifications/cancelled` and the closing result before the stream closes.
 * Nothing is stored anywhere.
 */
import { tooManyStreams, type McpError } from '../mcp/errors';
import type { Listen } from '../mcp/handler';
import type { RequestId } from '../mcp/types';
import { notificationJson, replyJson } from './responses';
import { EventStream } from './stream';

/** A comment every 15 s keeps intermediaries from closing a quiet stream (spec streamable-http). */
export const LISTEN_KEEPALIVE_MS = 15_000;

/** Listen streams open in this isolate: bounded, since each holds a connection and two timers. */
let open = 0;

/** Opens the stream, or refuses (429) when the isolate holds `maxStreams` already. */
export function openListenStream(id: RequestId, listen: Listen, maxMs: number, maxStreams: number): EventStream | McpError {
  if (open >= maxStreams) {
    return tooManyStreams(maxStreams);
  }
  open++;
  let end: ReturnType<typeof setTimeout> | undefined;
  let detach: (() => void) | undefined;
  const closed = () => {
    open--;
    if (end !== undefined) clearTimeout(end);
    detach?.();
  };
  const stream = new EventStream(LISTEN_KEEPALIVE_MS, closed);
  stream.send(notificationJson(listen.acknowledgement));
  detach = listen.attach?.((notification) => stream.send(notificationJson(notification)));
  end = setTimeout(() => {
    detach?.();
    stream.send(notificationJson(listen.teardown));
    stream.send(replyJson(id, { result: listen.closing }));
    stream.close();
    open--;
  }, maxMs);
  return stream;
}
