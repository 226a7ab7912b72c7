/**
 * What a principal's object answers (./subscriptionStore.ts), as plain data: the TTL it grants,
 * `deliveryStatus`, the refusals, and the check of a callback's echo.
 */
import { constantTimeEqual } from '../http/auth/auth.js';
import type { JsonObject } from '../mcp/internal.js';
import { callbackEndpointError, type ErrorData, errorData, quotaReached } from './eventErrors.js';
import type { EventsConfig } from './eventsConfig.js';
import type { Outcome } from './eventsNamespace.js';
import type { LastError } from './postSigned.js';
import type { Subscription } from './subscriptionTables.js';

/** The end of a subscription the server may no longer serve, with the error its `terminated` envelope carries. */
export class Terminated {
  constructor(readonly error: ErrorData) {}
}

/** The TTL granted (spec extensions/events, Subscription TTL): at most what was asked, at least the floor; never no expiry. */
export function grantTtl(asked: number | null | undefined, limits: EventsConfig['limits']): number {
  if (asked === undefined) return limits.defaultTtlMs;
  if (asked === null) return limits.maxTtlMs;
  return Math.min(limits.maxTtlMs, Math.max(limits.minTtlMs, asked));
}

/** `deliveryStatus` of a refresh, before it reactivates the subscription; `lastError` a category only. */
export function deliveryStatus(subscription: Subscription): JsonObject {
  return {
    active: subscription.state === 'active',
    lastDeliveryAt:
      subscription.last_delivery_at === null ? null : new Date(subscription.last_delivery_at).toISOString(),
    lastError: subscription.last_error,
    ...(subscription.failed_since !== null ? { failedSince: new Date(subscription.failed_since).toISOString() } : {}),
  };
}

/** A quota: the same subscribe meets it again until one is unsubscribed or expires (./eventErrors.ts: a 400). */
export const tooManySubscriptions = (max: number): Outcome => ({
  error: errorData(quotaReached('subscriptions', max, 'this principal holds as many webhook subscriptions as it may')),
});

export const callbackFailed = (reason: LastError): Outcome => ({ error: errorData(callbackEndpointError(reason)) });

/** True when `text` is `{"challenge": challenge}`, compared in constant time. */
export function echoed(text: string | undefined, challenge: string): boolean {
  if (text === undefined) return false;
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return false;
  }
  const given = (answer as { challenge?: unknown } | null)?.challenge;
  return typeof given === 'string' && constantTimeEqual(given, challenge);
}
