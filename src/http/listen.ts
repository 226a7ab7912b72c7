/**
 * The `subscriptions/listen` stream (spec 2026-07-28 basic/patterns/subscriptions): the
 * acknowledgement first, an SSE comment as keep-alive while it is quiet, and, when the
 * server ends it, the closing result before the stream closes. Closing by the client
 * just stops the timers; nothing is stored anywhere.
 */
import type { Listen } from '../mcp/server';
import type { RequestId } from '../mcp/types';
import { notificationJson, replyJson, SSE_HEADERS, sseEvent } from './respond';

/** A comment line every 15 s keeps intermediaries from closing a quiet stream (spec streamable-http). */
export const KEEPALIVE_MS = 15_000;
const KEEPALIVE = new TextEncoder().encode(':\n\n');

export function listenResponse(id: RequestId, listen: Listen, maxMs: number, clientGone: AbortSignal): Response {
  const encoder = new TextEncoder();
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let end: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (keepAlive !== undefined) clearInterval(keepAlive);
    if (end !== undefined) clearTimeout(end);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(sseEvent(notificationJson(listen.acknowledgement))));
      keepAlive = setInterval(() => controller.enqueue(KEEPALIVE), KEEPALIVE_MS);
      end = setTimeout(() => {
        stop();
        controller.enqueue(encoder.encode(sseEvent(replyJson(id, { result: listen.closing }))));
        controller.close();
      }, maxMs);
      clientGone.addEventListener('abort', stop, { once: true });
    },
    cancel: stop,
  });
  return new Response(body, { headers: SSE_HEADERS });
}
