/**
 * Notifications that reach every listener (docs/notifications.md): `subscriptions/listen`
 * honours resource subscriptions and list changes, whichever isolate holds the stream, through a
 * hub of Durable Objects that hibernate while quiet. Turned on in src/index.ts:
 *
 *   const worker = createWorker(serverDefinition, { extensions: [apps(), notifications()] });
 *   export class McpNotifications extends worker.McpNotifications {}
 *
 * with the notifications block of wrangler.toml; then `notify(env, { resourceUpdated: uri })` or
 * `notify(env, { listChanged: 'tools' })` from anywhere that has `env`.
 */
import type { ExtensionObject, WorkerExtension } from '../mcp/internal.js';
import { type HubObjectClass, hubObject } from './hubObject.js';
import { listenForChanges } from './listenForChanges.js';
import { DEFAULT_SHARDS, NOTIFICATION_LIMITS } from './notificationLimits.js';
import { DEFAULT_BINDING } from './notify.js';

export type { Change, ListKind } from './change.js';
export { NOTIFICATION_LIMITS } from './notificationLimits.js';
export { notify, type NotifyOptions } from './notify.js';

export interface NotificationsOptions {
  /** The hub's Durable Object binding (`[[durable_objects.bindings]]`); default `MCP_NOTIFICATIONS`. */
  binding?: string;
  /** Hub shards, 1 to 64 (default 8): each holds the streams placed on it, and each notify reaches every one (docs/notifications.md, "How it scales"). */
  shards?: number;
}

/** The notifications feature: the value `extensions` lists, with the hub's class, which createWorker returns as `McpNotifications`. */
export interface Notifications extends WorkerExtension {
  /** The hub is made from the options alone: it runs none of the server. */
  readonly durableObject: ExtensionObject<'McpNotifications'> & { make(): HubObjectClass };
}

export function notifications(options: NotificationsOptions = {}): Notifications {
  const binding = options.binding ?? DEFAULT_BINDING;
  const shards = options.shards ?? DEFAULT_SHARDS;
  if (!Number.isInteger(shards) || shards < 1 || shards > NOTIFICATION_LIMITS.maxShards)
    throw new Error(
      `notifications({ shards }): a whole number from 1 to ${NOTIFICATION_LIMITS.maxShards}, not ${shards}`,
    );
  return {
    id: 'notifications',
    // What this makes true, for the kinds of item the server serves (server/discover; spec basic/patterns/subscriptions).
    protocol: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    },
    install: (server) => ({ listen: listenForChanges(server, { binding, shards }) }),
    durableObject: { name: 'McpNotifications', binding, make: () => hubObject(binding, shards) },
  };
}
