/**
 * `notify(env, change)`: tells every open listen stream that asked for it, whichever isolate
 * holds it, that a resource or a list changed (spec 2026-07-28 basic/patterns/subscriptions).
 * Callable from anything with `env`: a tool's handler (`context.env`), a route of your own (a
 * webhook from the system whose data changed), a scheduled or a queue handler, another Worker
 * that binds the hub's class. It settles when every hub shard has accepted the change; it throws
 * when it could not be (a missing binding, a shard that cannot be reached, a flood past the
 * limit): the change is then not known to have reached anyone, never dropped in silence. A
 * missing binding is thrown as the core's `McpError` (`-32603 Server misconfigured: the binding …`),
 * which a tool's call answers as it is.
 */
import { type Change, topicOf } from './change.js';
import { coordinatorOf, hubNamespace } from './hubNamespace.js';
import { bindingMissing, type WorkerEnv } from '../mcp/internal.js';

export interface NotifyOptions {
  /** The hub's Durable Object binding; default `MCP_NOTIFICATIONS`. */
  binding?: string;
}

export const DEFAULT_BINDING = 'MCP_NOTIFICATIONS';

/**
 * `notify(env, { resourceUpdated: 'file:///project/config.json' })` sends
 * `notifications/resources/updated` to the streams that subscribed to that URI and may read it;
 * `notify(env, { listChanged: 'tools' })` (or `'prompts'`, `'resources'`) sends the list's
 * `list_changed` to the streams that listen for it.
 */
export async function notify(env: WorkerEnv, change: Change, options: NotifyOptions = {}): Promise<void> {
  const topic = topicOf(change);
  if (topic instanceof TypeError) throw topic;
  const binding = options.binding ?? DEFAULT_BINDING;
  const hub = hubNamespace(env, binding);
  // Thrown as the core's error value, so a tool that notifies answers with this message, not "Internal error".
  if (!hub)
    throw bindingMissing(
      binding,
      'is missing: notify needs this Durable Object, the notifications block of wrangler.toml (docs/notifications.md); a test that notifies runs the Worker in workerd (startInWorkerd), which binds it',
    );
  try {
    await coordinatorOf(hub, topic).publish(topic);
  } catch (error) {
    throw new Error(`notify: the notifications hub did not accept the change (${topic})`, { cause: error });
  }
}
