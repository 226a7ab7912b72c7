/**
 * The hub's Durable Objects, one class in two roles, found by name: shards (`shard:<n>`), each
 * holding the WebSockets of the listen streams placed on it, and coordinators
 * (`publish:<n>`), through which a change is published and fanned out to every shard.
 */
import { fnv1a, type WorkerEnv } from '../mcp/internal';
import { COORDINATORS } from './notificationLimits';

/** What the Worker and the hub's objects call on each other (RPC). */
export interface HubApi {
  /** A coordinator: fans `topic` out to every shard, merged with what else comes within a window; settles when every shard took it. */
  publish(topic: string): Promise<void>;
  /** A shard: sends each topic to the sockets here that listen for it; how many messages went out. */
  deliver(topics: readonly string[]): number;
  /** A shard: a listen stream's WebSocket (the upgrade request names what it listens for). */
  fetch(request: Request): Promise<Response>;
}

/** The hub's namespace in `env`, when the deployment binds it. */
export function hubNamespace(env: WorkerEnv, binding: string): DurableObjectNamespace | undefined {
  const namespace: unknown = (env as unknown as Record<string, unknown>)[binding];
  return typeof namespace === 'object' && namespace !== null && 'idFromName' in namespace
    ? (namespace as DurableObjectNamespace)
    : undefined;
}

export const shardOf = (hub: DurableObjectNamespace, index: number) =>
  hub.get(hub.idFromName(`shard:${index}`)) as unknown as HubApi;

/** The coordinator of a topic: the same one for each notify of it, so its repeats merge there. */
export const coordinatorOf = (hub: DurableObjectNamespace, topic: string) =>
  hub.get(hub.idFromName(`publish:${Number.parseInt(fnv1a(topic), 16) % COORDINATORS}`)) as unknown as HubApi;
