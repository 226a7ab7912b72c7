/**
 * `subscriptions/listen` with notifications on (spec 2026-07-28 basic/patterns/subscriptions):
 * the acknowledgement honours the list changes of what the server serves and the URIs the caller
 * may read (./honouredFilter.ts), and, when it honours any, the stream is placed on a hub shard
 * before it is acknowledged, so a change notified after the acknowledgement reaches it. A hub that
 * cannot be reached refuses the listen (-32603) rather than acknowledge a stream that hears nothing.
 */
import { internalError, isObject, McpError, MetaKey, type Method, type ServerAtLoad } from '../mcp/internal.js';
import { uriKey } from './change.js';
import { forwardChanges } from './forwardChanges.js';
import { acknowledged, honouredFilter } from './honouredFilter.js';
import { type HubListener, listenerUrl } from './hubListener.js';
import { type HubNamespace, hubNamespace, shardOf } from './hubNamespace.js';

interface HubOptions {
  /** The Durable Object binding of the hub (`McpNotifications`). */
  binding: string;
  /** Its shards: a stream is placed on one at random. */
  shards: number;
}

/** Wraps the core's `subscriptions/listen`: adds what it honours to the acknowledgement, and forwards the hub's changes. */
export const listenForChanges =
  (server: ServerAtLoad, { binding, shards }: HubOptions) =>
  (listen: Method): Method =>
  async (request) => {
    const reply = await listen(request);
    if (!reply.listen) return reply;
    const filter = honouredFilter(request.message.params, server, request.caller);
    if (filter instanceof McpError) return { error: filter };
    const { acknowledgement, attach: inner } = reply.listen;
    const others = isObject(acknowledgement.params?.notifications) ? acknowledgement.params.notifications : {};
    const acknowledging = {
      ...reply.listen,
      acknowledgement: {
        ...acknowledgement,
        params: { ...acknowledgement.params, notifications: { ...others, ...acknowledged(filter) } },
      },
    };
    if (filter.lists.length === 0 && filter.resources.size === 0) return { listen: acknowledging };
    const hub = hubNamespace(request.env, binding);
    if (!hub) {
      console.error(`notifications need the Durable Object binding ${binding} (docs/notifications.md)`);
      return { error: internalError() };
    }
    const keys = [...new Set([...filter.resources.keys()].map(uriKey))];
    let socket: WebSocket;
    try {
      socket = await connectToHub(hub, shards, { lists: filter.lists, keys });
    } catch (error) {
      console.error('notifications: no hub shard took the stream, so the listen is refused', error);
      return { error: internalError() };
    }
    const tag = { [MetaKey.subscriptionId]: request.message.id };
    const { caller } = request;
    return {
      listen: {
        ...acknowledging,
        attach(send, end) {
          const detach = inner?.(send, end);
          const stop = forwardChanges(
            { socket, filter, caller, scopeHierarchy: server.scopeHierarchy, tag },
            send,
            end,
          );
          return () => {
            detach?.();
            stop();
          };
        },
      },
    };
  };

/** The stream's WebSocket on a shard picked at random, accepted there before this returns; throws when none answers with one. */
async function connectToHub(hub: HubNamespace, shards: number, listener: HubListener): Promise<WebSocket> {
  const shard = shardOf(hub, Math.floor(Math.random() * shards));
  const response = await shard.fetch(new Request(listenerUrl(listener), { headers: { Upgrade: 'websocket' } }));
  if (!response.webSocket) throw new Error(`the hub shard answered ${response.status} without a WebSocket`);
  return response.webSocket;
}
