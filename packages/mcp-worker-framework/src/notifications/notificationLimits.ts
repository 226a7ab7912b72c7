/**
 * What one listener or one notifier can make the hub hold or do (docs/notifications.md, "Limits").
 * Each stream is one WebSocket on one hub shard, whose URIs ride in the socket's attachment as
 * 8-hex-digit keys (a Durable Object keeps at most 16 KiB of attachment per socket); each change
 * is sent at most once per window, so a flood costs the hub one fan-out per window, not one per call.
 */
export const NOTIFICATION_LIMITS = {
  /** Resource URIs one `subscriptions/listen` may name (more is -32602). */
  urisPerStream: 100,
  /** Characters of a resource URI, subscribed to or notified (more is -32602, or a TypeError from `notify`). */
  uriChars: 2_048,
  /** A change notified again within this many ms of its fan-out waits for the window's end, merged with the others. */
  coalesceMs: 100,
  /** Distinct changes one coordinator holds for its next window; past them `notify` throws (the caller sees the flood). */
  pendingChanges: 1_000,
  /** Hub shards one deployment may have: each notify wakes every one. */
  maxShards: 64,
} as const;

/** Hub shards by default: about 12,500 listeners each at 100,000 (docs/notifications.md, "How it scales"). */
export const DEFAULT_SHARDS = 8;

/**
 * Coordinators a change is published through, picked by its topic: a constant of the hub's
 * protocol, not an option, so a notifier (any Worker with the binding) needs no setting in step
 * with the listeners'. A coordinator knows the shards from the class, built with the listeners' options.
 */
export const COORDINATORS = 8;
