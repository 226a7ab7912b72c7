/**
 * The events extension's Durable Objects: one class in three roles, found by name (docs/events.md,
 * "How it scales"). A principal's object (`principal:<hash>`) holds that principal's webhook
 * subscriptions, their pending deliveries and the callbacks it verified, and delivers, retries and
 * expires them by alarm. An event type's object (`type:<name>`) takes each `emit`, keeps a ring of
 * the latest events (poll, stream), and fans each out, by alarm, to the principals' objects that
 * subscribe to it. A callback host's object (`host:<host>`) counts the verification POSTs sent to it.
 */
import {
  binding,
  type DurableObjects,
  isDurableObjects,
  type JsonObject,
  type Remote,
  type WorkerEnv,
} from '../mcp/internal.js';
import type { WireError } from './eventErrors.js';

/** An event as the Durable Objects carry it: the occurrence, its place in its type's ring, when it was accepted. */
export interface RingEvent {
  seq: number;
  /** The `EventOccurrence`, as JSON (the author's `data` is never parsed where it need not be). */
  occurrence: string;
  acceptedAt: number;
}

/** What a webhook subscribe hands a principal's object: the key, checked, and what the client asked. */
export interface SubscribeInput {
  /** The object's own name, for the index of its event types. */
  self: string;
  id: string;
  name: string;
  url: string;
  /** Canonical JSON of the arguments. */
  args: string;
  secret: string;
  /** The subscriber as the hooks see it (subject, scopes, claims), JSON. */
  caller: string;
  /** The suggested TTL: undefined for the server's default, null for no expiry. */
  ttlMs: number | null | undefined;
  cursor: string | null;
  /** Replay nothing older than this (spec extensions/events, Cursor Lifecycle). */
  maxAgeMs?: number;
}

/** An outcome as plain data (RPC carries no class instances): a result, or a JSON-RPC error. */
export type Outcome = { result: JsonObject } | { error: WireError };

export interface EventsApi {
  /** A principal's object: creates or refreshes the subscription of `input.id` (verifying its callback first when needed). */
  subscribe(input: SubscribeInput): Promise<Outcome>;
  /** A principal's object: removes a subscription; false when it holds none by that id. */
  unsubscribe(id: string): Promise<boolean>;
  /** A principal's object: queues `event` for its subscriptions to `name`; how many live ones it has (0: drop it from the index). */
  accept(name: string, event: RingEvent, epoch: string): Promise<number>;
  /** An event type's object: keeps and fans out one emitted occurrence; its eventId and place. */
  publish(occurrence: JsonObject): Promise<{ eventId: string; seq: number; duplicate: boolean }>;
  /** An event type's object: a principal's object subscribes to it; the ring's epoch and head. */
  addSubscriber(principal: string): Promise<{ epoch: string; head: number }>;
  removeSubscriber(principal: string): Promise<void>;
  /** An event type's object: the ring after `after` (at most `limit` events), its epoch, head and oldest kept place. */
  read(after: number, limit: number): Promise<{ epoch: string; head: number; tail: number; events: RingEvent[] }>;
  /** An event type's object: a waiting poll's or stream's WebSocket (./ringWaiter.ts). */
  fetch(request: Request): Promise<Response>;
  /** A callback host's object: true when one more verification POST fits this minute's budget. */
  admitVerification(perMinute: number): Promise<boolean>;
}

/** The extension's namespace: its stubs answer `EventsApi` (Workers RPC). */
export type EventsNamespace = DurableObjects<EventsApi>;

/** One object of it, over RPC. */
export type EventsStub = Remote<EventsApi>;

/** The extension's namespace in `env`, when the deployment binds it. */
export const eventsNamespace = (env: WorkerEnv, name: string) => binding(env, name, isDurableObjects<EventsApi>);

export const objectNamed = (namespace: EventsNamespace, name: string) => namespace.get(namespace.idFromName(name));

export const typeObjectName = (eventName: string) => `type:${eventName}`;
export const hostObjectName = (host: string) => `host:${host}`;
