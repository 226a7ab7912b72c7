/**
 * The hub's Durable Objects, one class in two roles, found by name: shards (`shard:<n>`), each
 * holding the WebSockets of the listen streams placed on it, and coordinators
 * (`publish:<n>`), through which a change is published and fanned out to every shard.
 */
import { binding as bound, type DurableObjects, fnv1a, isDurableObjects, type WorkerEnv } from '../mcp/internal.js';
import { COORDINATORS } from './notificationLimits.js';

/** What the Worker and the hub's objects call on each other (RPC). */
export interface HubApi {
  /** A coordinator: fans `topic` out to every shard, merged with what else comes within a window; settles when every shard took it. */
  publish(topic: string): Promise<void>;
  /** A shard: sends each topic to the sockets here that listen for it; how many messages went out. */
  deliver(topics: readonly string[]): number;
  /** A shard: a listen stream's WebSocket (the upgrade request names what it listens for). */
  fetch(request: Request): Promise<Response>;
}

/** The hub's namespace: its stubs answer `HubApi` (Workers RPC). */
export type HubNamespace = DurableObjects<HubApi>;

/** The hub's namespace in `env`, when the deployment binds it. */
export const hubNamespace = (env: WorkerEnv, binding: string) => bound(env, binding, isDurableObjects<HubApi>);

export const shardOf = (hub: HubNamespace, index: number) => hub.get(hub.idFromName(`shard:${index}`));

/** The coordinator of a topic: the same one for each notify of it, so its repeats merge there. */
export const coordinatorOf = (hub: HubNamespace, topic: string) =>
  hub.get(hub.idFromName(`publish:${Number.parseInt(fnv1a(topic), 16) % COORDINATORS}`));
