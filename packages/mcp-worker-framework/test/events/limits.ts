/** The events fixture's bounds (./worker.ts), small enough to reach in a test; a file of its own, so a test imports them in Node. */
export const LIMITS = {
  subscriptionsPerPrincipal: 4,
  pendingPerSubscription: 3,
  verificationsPerHostPerMinute: 30,
  argumentBytes: 512,
  minTtlMs: 1_000,
  attempts: 4,
  retryBaseMs: 100,
  deliveryTimeoutMs: 2_000,
  suspendAfterFailures: 6,
  checkEveryMs: 200,
  heartbeatMs: 400,
  webhookCheckEveryMs: 300,
} as const;
