/**
 * The `subscriptions/listen` stream (spec 2026-07-28 basic/patterns/subscriptions): the
 * acknowledgement first, SSE comments as keep-alive while it is quiet, and, when the
 * server ends it, the closing result before the stream closes. Nothing is stored anywhere.
 */
import type { Listen } from '../mcp/server';
import type { RequestId } from '../mcp/types';
import { tooManyStreams } from '../mcp/errors';
import { errorResponse, notificationJson, replyJson } from './respond';
import { EventStream } from './stream';

/** A comment every 15 s keeps intermediaries from closing a quiet stream (spec streamable-http). */
export const LISTEN_KEEPALIVE_MS = 15_000;

/** Listen streams open in this isolate: bounded, since each holds a connection and two timers. */
let open = 0;

export function listenResponse(id: RequestId, listen: Listen, maxMs: number, maxStreams: number): Response {
  if (open >= maxStreams) {
    const refused = errorResponse(id, tooManyStreams(maxStreams));
    refused.headers.set('Retry-After', String(Math.ceil(LISTEN_KEEPALIVE_MS / 1000)));
    return refused;
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
    stream.send(replyJson(id, { result: listen.closing }));
    stream.close();
    open--;
  }, maxMs);
  return stream.response;
}
