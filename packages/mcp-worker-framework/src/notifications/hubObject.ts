/**
 * The Durable Object class of the notifications hub, which src/index.ts exports as
 * `McpNotifications`: one class in two roles (./hubNamespace.ts). A shard accepts listen streams'
 * WebSockets with the Hibernation API (`ctx.acceptWebSocket`, tagged by what they listen to), so
 * while no change comes it is evicted from memory and billed nothing, its sockets still open; a
 * change wakes it, and it sends the change to the sockets that listen for it. A coordinator merges
 * the changes published through it (./coalescer.ts) and fans each batch out to every shard. The
 * hub stores nothing: a socket's attachment (memory the runtime keeps across hibernation) says
 * what it listens to, and a shard that restarts loses its sockets, which ends their streams.
 */
import { DurableObject } from 'cloudflare:workers';
import { isTopic, uriKey, uriOf } from './change.js';
import { Coalescer } from './coalescer.js';
import { readListener } from './hubListener.js';
import { type HubApi, hubNamespace, shardOf } from './hubNamespace.js';
import { NOTIFICATION_LIMITS } from './notificationLimits.js';
import { type ListenerAttachment, SocketIndex } from './socketIndex.js';
import type { WorkerEnv } from '../mcp/internal.js';

/** The tag of a socket that listens to resource URIs (its keys are in its attachment). */
const URIS_TAG = 'uris';

/** The hub's class for `binding`, with `shards` shards: built from the same options as the listeners (`notifications()`). */
/** The hub's class: made per binding, so its methods are its type. */
export type HubObjectClass = new (ctx: DurableObjectState, env: WorkerEnv) => DurableObject<WorkerEnv> & HubApi;

export function hubObject(binding: string, shards: number): HubObjectClass {
  return class McpNotifications extends DurableObject<WorkerEnv> implements HubApi {
    private coalescer: Coalescer | undefined;
    private index: SocketIndex | undefined;

    /** A listen stream's WebSocket: accepted for hibernation, tagged with its lists, its URIs' keys attached. */
    override async fetch(request: Request): Promise<Response> {
      if (request.headers.get('Upgrade') !== 'websocket')
        return new Response('a listener connects with a WebSocket upgrade', { status: 426 });
      const listener = readListener(new URL(request.url));
      if (typeof listener === 'string') return new Response(listener, { status: 400 });
      const { 0: client, 1: socket } = new WebSocketPair();
      const tags: string[] = listener.lists.map((kind) => `list:${kind}`);
      if (listener.keys.length > 0) tags.push(URIS_TAG);
      this.ctx.acceptWebSocket(socket, tags);
      socket.serializeAttachment({ keys: [...listener.keys] } satisfies ListenerAttachment);
      this.index?.add(socket);
      return new Response(null, { status: 101, webSocket: client });
    }

    async publish(topic: string): Promise<void> {
      if (!isTopic(topic)) throw new TypeError('not a change this hub carries');
      this.coalescer ??= new Coalescer(NOTIFICATION_LIMITS.coalesceMs, NOTIFICATION_LIMITS.pendingChanges, (topics) =>
        this.fanOut(topics),
      );
      return this.coalescer.publish(topic);
    }

    deliver(topics: readonly string[]): number {
      let sent = 0;
      for (const topic of topics) {
        const uri = uriOf(topic);
        const sockets = uri === undefined ? this.ctx.getWebSockets(topic) : this.indexed().get(uriKey(uri));
        for (const socket of sockets) {
          try {
            socket.send(topic);
            sent++;
          } catch {
            // a socket closing meanwhile: its close event takes it out of the index
          }
        }
      }
      return sent;
    }

    /** Listeners say nothing; what one sends is dropped. */
    override webSocketMessage(): void {}

    override webSocketClose(socket: WebSocket, code: number): void {
      this.index?.remove(socket);
      try {
        socket.close(code === 1005 || code === 1006 ? 1000 : code, 'the listener left');
      } catch {
        // already answered by the runtime
      }
    }

    override webSocketError(socket: WebSocket): void {
      this.index?.remove(socket);
    }

    /** The URI listeners by key: built from the sockets' attachments once per wake, then kept in step. */
    private indexed(): SocketIndex {
      return (this.index ??= new SocketIndex(this.ctx.getWebSockets(URIS_TAG)));
    }

    /** Every shard, in parallel; one that does not take the batch fails the publish, naming how many did not. */
    private async fanOut(topics: readonly string[]): Promise<void> {
      const hub = hubNamespace(this.env, binding);
      if (!hub) throw new Error(`the hub's own binding ${binding} is missing`);
      const outcomes = await Promise.allSettled(
        Array.from({ length: shards }, (_, index) => shardOf(hub, index).deliver(topics)),
      );
      const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
      if (failed.length > 0)
        throw new Error(
          `${failed.length} of ${shards} hub shards did not take the change: ${String((failed[0] as PromiseRejectedResult).reason)}`,
        );
    }
  };
}
