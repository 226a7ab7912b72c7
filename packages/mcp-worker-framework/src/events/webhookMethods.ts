/**
 * `events/subscribe` and `events/unsubscribe` (spec extensions/events, Webhook-Based Delivery):
 * for an authenticated principal only (-32012 otherwise: without one the key is guessable). The
 * request is checked here, in the Worker, before any Durable Object is touched: the event type
 * (visible to the caller, its scopes granted), the arguments (their size, then `inputSchema`),
 * the callback URL and the `whsec_` secret, the TTL and the cursor. The principal's object then
 * verifies the callback (within this call: a failure is its -32015), upserts the subscription
 * and grants its TTL.
 */
import {
  type Caller,
  internalError,
  invalidParams,
  isObject,
  type JsonObject,
  McpError,
  type McpRequest,
  type Method,
  misconfigured,
  type ServerAtLoad,
} from '../mcp/internal.js';
import { callbackRefusal } from './callbackUrl.js';
import { errorOf, notFound, notPermitted, unsupported } from './eventErrors.js';
import { readEventRequest } from './eventRequest.js';
import type { EventsConfig } from './eventsConfig.js';
import { eventsNamespace, objectNamed, type Outcome } from './eventsNamespace.js';
import { canonicalJson, principalObjectName, subscriptionId } from './subscriptionKey.js';
import { settings } from './eventsSettings.js';
import { RING_CURSOR } from './ringReader.js';
import { secretRefusal } from './webhookSecret.js';

/** What the hooks keep of the subscriber: at most this many bytes of claims (a token's worth). */
const CALLER_BYTES = 16 * 1024;

export function webhookMethods(server: ServerAtLoad, config: EventsConfig): Record<string, Method> {
  /** The key's parts both methods share: the principal's object, the URL, the canonical arguments. */
  const keyOf = (request: McpRequest, params: JsonObject) => {
    const { caller } = request;
    if (!caller) return notPermitted('webhook subscriptions need an authenticated principal');
    const args = params.arguments ?? {};
    if (!isObject(args)) return invalidParams('params.arguments must be an object');
    const canonical = canonicalJson(args);
    const delivery = params.delivery;
    if (!isObject(delivery)) return invalidParams('params.delivery must be an object');
    const loopback = settings.EVENTS_LOOPBACK_CALLBACKS.parse(String(request.env.EVENTS_LOOPBACK_CALLBACKS || 'off'));
    if (typeof loopback !== 'string') return misconfigured('EVENTS_LOOPBACK_CALLBACKS', 'must be `on` or `off`');
    const refused = callbackRefusal(delivery.url, config.limits.urlChars, loopback === 'on');
    if (refused) return invalidParams(refused);
    const namespace = eventsNamespace(request.env, config.binding);
    if (!namespace) {
      console.error(`events need the Durable Object binding ${config.binding} (docs/events.md)`);
      return internalError();
    }
    return { caller, canonical, delivery, url: delivery.url as string, namespace };
  };

  const subscribe: Method = async (request) => {
    const params = request.message.params ?? {};
    if (!request.caller) return { error: notPermitted('webhook subscriptions need an authenticated principal') };
    const read = await readEventRequest(request, config, server.scopeHierarchy);
    if (read instanceof McpError) return { error: read };
    const { type } = read;
    const key = keyOf(request, params);
    if (key instanceof McpError) return { error: key };
    const { mode = 'webhook', secret } = key.delivery;
    if (mode !== 'webhook')
      return {
        error: unsupported(
          'deliveryMode',
          mode,
          'events/subscribe is for webhook delivery only; poll and push need no subscribe',
        ),
      };
    const badSecret = secretRefusal(secret);
    if (badSecret) return { error: invalidParams(badSecret) };
    const { ttlMs, cursor, maxAgeMs } = params;
    if (ttlMs !== undefined && ttlMs !== null && !(Number.isSafeInteger(ttlMs) && (ttlMs as number) >= 0))
      return { error: invalidParams('params.ttlMs must be a whole number of milliseconds, or null') };
    if (maxAgeMs !== undefined && !(Number.isSafeInteger(maxAgeMs) && (maxAgeMs as number) >= 0))
      return { error: invalidParams('params.maxAgeMs must be a whole number of milliseconds') };
    if (
      cursor !== undefined &&
      cursor !== null &&
      !(typeof cursor === 'string' && cursor.length <= config.limits.idChars)
    )
      return {
        error: invalidParams(`params.cursor must be a string of at most ${config.limits.idChars} characters, or null`),
      };
    // An emit-only type's cursor is a place in its ring, as poll and push take it; a `check` type's is its upstream's.
    if (typeof cursor === 'string' && !type.definition.check && !RING_CURSOR.test(cursor))
      return { error: invalidParams('params.cursor must be a cursor this server gave, or null') };
    const name = type.definition.name;
    const self = await principalObjectName(key.caller.subject);
    let outcome: Outcome;
    try {
      outcome = await objectNamed(key.namespace, self).subscribe({
        self,
        id: await subscriptionId(key.caller.subject, key.url, name, key.canonical),
        name,
        url: key.url,
        args: key.canonical,
        secret: secret as string,
        caller: snapshot(key.caller),
        ttlMs: ttlMs as number | null | undefined,
        cursor: (cursor as string | null | undefined) ?? null,
        ...(maxAgeMs !== undefined ? { maxAgeMs: maxAgeMs as number } : {}),
      });
    } catch (error) {
      console.error('events/subscribe: the principal object could not be reached', error);
      return { error: internalError() };
    }
    return 'result' in outcome ? { result: outcome.result } : { error: errorOf(outcome.error) };
  };

  const unsubscribe: Method = async (request) => {
    const params = request.message.params ?? {};
    if (typeof params.name !== 'string') return { error: invalidParams('params.name must be a string') };
    const key = keyOf(request, params);
    if (key instanceof McpError) return { error: key };
    const id = await subscriptionId(key.caller.subject, key.url, params.name, key.canonical);
    try {
      const removed = await objectNamed(key.namespace, await principalObjectName(key.caller.subject)).unsubscribe(id);
      return removed
        ? { result: {} }
        : { error: notFound('subscription', 'no webhook subscription with this name, arguments and url') };
    } catch (error) {
      console.error('events/unsubscribe: the principal object could not be reached', error);
      return { error: internalError() };
    }
  };

  return { 'events/subscribe': subscribe, 'events/unsubscribe': unsubscribe };
}

/** What the hooks see of the subscriber, kept with the subscription: its claims only when they are a token's worth. */
function snapshot(caller: Caller): string {
  // Who it is (a person or a machine, and who vouched for them) is kept whole: a hook's rule may read it (issue 47).
  const { subject, kind, issuer, scopes } = caller;
  const whole = JSON.stringify({ subject, kind, issuer, scopes, claims: caller.claims });
  return whole.length <= CALLER_BYTES ? whole : JSON.stringify({ subject, kind, issuer, scopes, claims: {} });
}
