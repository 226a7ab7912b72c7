/**
 * The `subscriptions/listen` stream (spec 2026-07-28 basic/patterns/subscriptions): the
 * acknowledgement first, SSE comments as keep-alive while it is quiet, and, when the
 * server ends it, `notifications/cancelled` and the closing result before the stream closes.
 * Nothing is stored anywhere.
 */
import { type Listen, type McpError, type RequestId, tooManyStreams } from '../../mcp/internal.js';
import { notificationJson, replyJson } from './responses.js';
import { EventStream } from './stream.js';

/** A comment every 15 s keeps intermediaries from closing a quiet stream (spec streamable-http). */
const LISTEN_KEEPALIVE_MS = 15_000;
/** A refused listen comes back after one keepalive: by then another stream may have closed. */
const RETRY_LISTEN_SECONDS = Math.ceil(LISTEN_KEEPALIVE_MS / 1000);

/** Gives a stream's place back; a second call does nothing. */
export type ListenSlot = () => void;

/**
 * Listen streams open in this isolate, in all and per client: bounded, since each holds a
 * connection and two timers. A client's count is deleted when it drops to zero, so the map
 * never holds more keys than there are open streams.
 */
let open = 0;
const openByClient = new Map<string, number>();

/** The streams one client may hold: a quarter of the isolate's, at least one, so no client locks the others out. */
export const clientShare = (maxStreams: number) => Math.max(1, Math.floor(maxStreams / 4));

/**
 * Takes a place for a listen stream before the request is served, so a refused listen costs
 * nothing (no task object is touched): 429 when the isolate holds `maxStreams` already, or
 * `client` (the principal, else the client address) its share of them.
 */
export function takeListenSlot(client: string, maxStreams: number): ListenSlot | McpError {
  if (open >= maxStreams) return tooManyStreams(maxStreams, false, RETRY_LISTEN_SECONDS);
  const held = openByClient.get(client) ?? 0;
  const share = clientShare(maxStreams);
  if (held >= share) return tooManyStreams(share, true, RETRY_LISTEN_SECONDS);
  open++;
  openByClient.set(client, held + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    open--;
    const left = (openByClient.get(client) ?? 1) - 1;
    if (left > 0) openByClient.set(client, left);
    else openByClient.delete(client);
  };
}

/**
 * Events a listen stream may hold that its client has not read: past them, or past
 * `MAX_UNREAD_BYTES` (`./stream.ts`), the client cannot keep up, and the stream ends gracefully
 * (it reopens and starts afresh) rather than grow without limit.
 */
const LISTEN_MAX_BACKLOG = 100;

/**
 * Opens the stream in the place `slot` holds, and gives the place back when the stream ends: at
 * `maxMs`, or sooner at `expiresAt` (the caller's credential expires, `Caller.expiresAt`: the
 * client reopens with a new one and is decided afresh), when the source asks (`attach`'s `end`),
 * or when the client falls `LISTEN_MAX_BACKLOG` events or `MAX_UNREAD_BYTES` behind.
 */
export function openListenStream(
  id: RequestId,
  listen: Listen,
  maxMs: number,
  slot: ListenSlot,
  expiresAt?: number,
): EventStream {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let detach: (() => void) | undefined;
  const closed = () => {
    slot();
    if (timer !== undefined) clearTimeout(timer);
    detach?.();
  };
  const stream = new EventStream(LISTEN_KEEPALIVE_MS, closed);
  // The server ends the subscription: notifications/cancelled, then the closing result (spec
  // basic/patterns/subscriptions, Graceful Closure); once.
  const end = () => {
    if (stream.closed) return;
    closed();
    stream.send(notificationJson(listen.teardown));
    stream.close(replyJson(id, { result: listen.closing }));
  };
  stream.send(notificationJson(listen.acknowledgement));
  detach = listen.attach?.((notification) => {
    stream.send(notificationJson(notification));
    if (stream.backlog > LISTEN_MAX_BACKLOG || stream.behind) end();
  }, end);
  // Past its time (a credential already expired), at once: setTimeout takes a negative delay as none.
  timer = setTimeout(end, Math.min(maxMs, (expiresAt ?? Number.POSITIVE_INFINITY) - Date.now()));
  return stream;
}
