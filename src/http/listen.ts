/**
 * The `subscriptions/listen` stream (spec 2026-07-28 basic/patterns/subscriptions): the
 * acknowledgement first, SSE comments as keep-alive while it is quiet, and, when the
 * server ends it, the closing result before the stream closes. Nothing is stored anywhere.
 */
import type { Listen } from '../mcp/server';
import type { RequestId } from '../mcp/types';
import { notificationJson, replyJson } from './respond';
import { EventStream } from './stream';

/** A comment every 15 s keeps intermediaries from closing a quiet stream (spec streamable-http). */
export const LISTEN_KEEPALIVE_MS = 15_000;

export function listenResponse(id: RequestId, listen: Listen, maxMs: number): Response {
  let end: ReturnType<typeof setTimeout> | undefined;
  const stream = new EventStream(LISTEN_KEEPALIVE_MS, () => {
    if (end !== undefined) clearTimeout(end);
  });
  stream.send(notificationJson(listen.acknowledgement));
  end = setTimeout(() => {
    stream.send(replyJson(id, { result: listen.closing }));
    stream.close();
  }, maxMs);
  return stream.response;
}
