/**
 * The Durable Object class of the events extension, which src/index.ts exports as `McpEvents`:
 * one class in three roles, by the name it is addressed with (./eventsNamespace.ts). A principal's
 * subscriptions (./subscriptionStore.ts), an event type's ring and fan-out (./eventLog.ts), a
 * callback host's budget of verification requests (below). Each keeps its state in its own
 * SQLite; the alarm does the work of whichever role the object has.
 */
import { DurableObject } from 'cloudflare:workers';
import type { JsonObject, WorkerEnv } from '../mcp/internal.js';
import type { EventsConfig } from './eventsConfig.js';
import {
  type EventsApi,
  eventsNamespace,
  type Outcome,
  type RingEvent,
  type SubscribeInput,
} from './eventsNamespace.js';
import { EventLog } from './eventLog.js';
import { SubscriptionStore } from './subscriptionStore.js';

/** The class, made from the extension's options, so its methods are its type. */
export type EventsObjectClass = new (ctx: DurableObjectState, env: WorkerEnv) => DurableObject<WorkerEnv> & EventsApi;

type Role = 'principal' | 'type';

export function eventsObject(config: EventsConfig): EventsObjectClass {
  return class McpEvents extends DurableObject<WorkerEnv> implements EventsApi {
    private store: SubscriptionStore | undefined;
    private log: EventLog | undefined;

    subscribe(input: SubscribeInput): Promise<Outcome> {
      return this.principal().subscribe(input);
    }
    unsubscribe(id: string): Promise<boolean> {
      return this.principal().unsubscribe(id);
    }
    accept(name: string, event: RingEvent, epoch: string): Promise<number> {
      return this.principal().accept(name, event, epoch);
    }
    async publish(occurrence: JsonObject) {
      // Checked before the object takes a role: an unknown name leaves nothing stored.
      if (typeof occurrence.name !== 'string' || !config.types.has(occurrence.name))
        throw new TypeError(`emit: no event type ${JSON.stringify(occurrence.name)} in events({ types })`);
      return this.type().publish(occurrence);
    }
    async addSubscriber(principal: string) {
      return this.type().addSubscriber(principal);
    }
    async removeSubscriber(principal: string): Promise<void> {
      this.type().removeSubscriber(principal);
    }
    async read(after: number, limit: number) {
      return this.type().read(after, limit);
    }

    /** A fixed window of one minute: at most `perMinute` verification POSTs to this host, whoever asks. */
    async admitVerification(perMinute: number): Promise<boolean> {
      const minute = Math.floor(Date.now() / 60_000);
      const window = this.ctx.storage.kv.get<{ minute: number; count: number }>('verifications');
      const count = window?.minute === minute ? window.count : 0;
      if (count >= perMinute) return false;
      this.ctx.storage.kv.put('verifications', { minute, count: count + 1 });
      return true;
    }

    /** An event type's object: a waiting poll's or stream's WebSocket (./ringWaiter.ts). */
    override async fetch(request: Request): Promise<Response> {
      if (request.headers.get('Upgrade') !== 'websocket')
        return new Response('a waiter connects with a WebSocket upgrade', { status: 426 });
      return this.type().waiter();
    }

    /** Waiters say nothing; what one sends is dropped. */
    override webSocketMessage(): void {}

    override webSocketClose(socket: WebSocket, code: number): void {
      try {
        socket.close(code === 1005 || code === 1006 ? 1000 : code, 'the waiter left');
      } catch {
        // already answered by the runtime
      }
    }

    override async alarm(): Promise<void> {
      if (this.store) return this.store.alarm();
      if (this.log) return this.log.alarm();
      const role = this.ctx.storage.kv.get<Role>('role');
      if (role === 'principal') await this.principal().alarm();
      else if (role === 'type') await this.type().alarm();
    }

    private principal(): SubscriptionStore {
      if (!this.store) {
        this.takeRole('principal');
        this.store = new SubscriptionStore(this.ctx.storage, this.env, config);
      }
      return this.store;
    }

    /** Written once: the alarm reads which role it serves. */
    private takeRole(role: Role): void {
      if (this.ctx.storage.kv.get<Role>('role') !== role) this.ctx.storage.kv.put('role', role);
    }

    private type(): EventLog {
      if (!this.log) {
        this.takeRole('type');
        this.log = new EventLog(this.ctx, this.ctx.storage, () => eventsNamespace(this.env, config.binding)!, config);
      }
      return this.log;
    }
  };
}
