/**
 * What one principal, one subscription, one callback host or one emit can make the events
 * extension hold or do (docs/events.md, "Limits"), and its timings. Each bound is answered as the
 * design sketch says (spec extensions/events, Error Codes): -32013 naming the limit, never a 5xx.
 * Every value may be set in `events({ limits })`; tests set small ones.
 */
export const EVENT_LIMITS = {
  /** Webhook subscriptions one principal holds at once (more: -32013 `subscriptions`). */
  subscriptionsPerPrincipal: 100,
  /** Deliveries one subscription may have waiting (being retried, or suspended); past them an event is skipped and a `gap` envelope says so. */
  pendingPerSubscription: 100,
  /** Verification POSTs to one callback host per minute, whoever asks (more: -32013 `verificationsPerHost`). */
  verificationsPerHostPerMinute: 10,
  /** Bytes of a subscription's arguments as canonical JSON (more: -32013 `argumentBytes`). */
  argumentBytes: 4 * 1024,
  /** Bytes of one delivery's body, as Standard Webhooks receivers accept (more: `emit` throws; a transformed event is skipped). */
  payloadBytes: 256 * 1024,
  /** Characters of a callback URL. */
  urlChars: 2048,
  /** Characters of an `eventId`, and of a cursor. */
  idChars: 256,
  /** Granted TTLs (spec: the client suggests `ttlMs`, the server grants `refreshBefore`). */
  defaultTtlMs: 60 * 60_000,
  minTtlMs: 60_000,
  maxTtlMs: 24 * 60 * 60_000,
  /** Attempts per delivery, the first included, spaced by `retryBaseMs` × 4^(attempt − 1): 10 s, 40 s, 160 s, 640 s (the sketch: 3–5 over ≤ 15 minutes). */
  attempts: 5,
  retryBaseMs: 10_000,
  /** How long one POST may take before it counts as `timeout`. */
  deliveryTimeoutMs: 5_000,
  /** Failed attempts in a row, with no success between, after which delivery is suspended until the client refreshes. */
  suspendAfterFailures: 20,
  /** How long the previous secret still signs after a rotation (dual signatures, Standard Webhooks). */
  rotationGraceMs: 15 * 60_000,
  /** How long a verified callback stays verified for its principal without a subscription using it. */
  verifiedForMs: 7 * 24 * 60 * 60_000,
  /** Emitted events an event type keeps for poll, stream replay and webhook replay, by count and by age. */
  ringEvents: 1000,
  ringAgeMs: 10 * 60_000,
  /** Principal objects one fan-out step reaches at once, from an event type's object. */
  fanOutBatch: 50,
  /** `events/poll`: the longest hold (`timeoutMs`), the wait advised between polls, the most events per answer. */
  maxPollTimeoutMs: 55_000,
  nextPollMs: 5_000,
  maxPollEvents: 100,
  /** `events/poll` and `events/stream` of an event type with `check`: how often the hook is asked again while one is open. */
  checkEveryMs: 5_000,
  /** A webhook subscription to an event type with `check`: how often its principal's object asks the hook (an emit of the type asks at once). */
  webhookCheckEveryMs: 60_000,
  /** `events/stream`: a heartbeat this often (the sketch: at least every 30 s), and how long a stream lives before the server ends it. */
  heartbeatMs: 25_000,
  streamMaxMs: 10 * 60_000,
  /** Event streams one isolate holds open (what each holds unread is bounded as every stream's: src/http/transport/stream.ts). */
  streamsPerIsolate: 100,
};

export type EventLimits = typeof EVENT_LIMITS;
