/**
 * The listening isolate's side of a stream: its WebSocket to a hub shard, whose messages (one
 * topic each, ./change.ts) become the spec's notifications on the client's SSE stream, tagged with
 * the subscription id, in the order the shard sent them. Only what the stream honours passes: a
 * URI whose key merely clashes with one of its own is dropped, and a URI's rule is asked again
 * each time (spec 2026-07-28 basic/patterns/subscriptions: the server MUST NOT send what was not
 * requested). The stream ends gracefully when the shard goes away (a restart, a deploy): the
 * client reopens it, and is decided afresh (as when its caller's token expires, src/http/transport/listen.ts).
 */
import {
  type Caller,
  type JsonObject,
  type JSONRPCNotification,
  refusalFor,
  type ScopeHierarchy,
} from '../mcp/internal.js';
import { notificationOf, uriOf } from './change.js';
import type { HonouredFilter } from './honouredFilter.js';

interface Forwarding {
  socket: WebSocket;
  filter: HonouredFilter;
  caller: Caller | undefined;
  scopeHierarchy: ScopeHierarchy;
  /** `_meta` with the subscription id, for every notification. */
  tag: JsonObject;
}

/** Starts forwarding; returns how to stop (closing the socket, which the shard then forgets). */
export function forwardChanges(
  { socket, filter, caller, scopeHierarchy, tag }: Forwarding,
  send: (notification: JSONRPCNotification) => void,
  end: () => void,
): () => void {
  const lists = new Set<string>(filter.lists.map((kind) => `list:${kind}`));
  const heard = (topic: string): boolean => {
    const uri = uriOf(topic);
    if (uri === undefined) return lists.has(topic);
    const rules = filter.resources.get(uri);
    return rules !== undefined && refusalFor(rules, caller, scopeHierarchy) === undefined;
  };
  socket.addEventListener('message', ({ data }) => {
    if (typeof data !== 'string' || !heard(data)) return;
    const notification = notificationOf(data);
    if (notification) send({ ...notification, params: { ...notification.params, _meta: tag } });
  });
  socket.addEventListener('close', end);
  socket.addEventListener('error', end);
  socket.accept();
  return () => {
    socket.removeEventListener('close', end);
    socket.removeEventListener('error', end);
    try {
      socket.close(1000, 'the stream ended');
    } catch {
      // closed already
    }
  };
}
