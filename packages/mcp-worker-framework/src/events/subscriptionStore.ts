/**
 * A principal's webhook subscriptions, in its own Durable Object's SQLite (spec extensions/events,
 * Webhook-Based Delivery): durable, so they outlive a restart for the TTL they were granted; the
 * callbacks it verified (the handshake is cached per principal and URL); and the deliveries
 * waiting, each sent by the object's alarm, retried with exponential backoff and a fresh signature,
 * given up after its last attempt. The alarm is set to the next delivery due or the next expiry,
 * whichever comes first: a quiet subscription costs no duration at all.
 */
import { type JsonObject, refusalFor, type WorkerEnv } from '../mcp/internal';
import type { EventOccurrence } from './defineEventType';
import {
  ACCESS_REVOKED,
  callbackEndpointError,
  type ErrorData,
  EventErrorCode,
  errorData,
  quotaReached,
  rateReached,
} from './eventErrors';
import { controlId, type EventsConfig, ringCursor } from './eventsConfig';
import {
  hostObjectName,
  objectNamed,
  type Outcome,
  type RingEvent,
  type SubscribeInput,
  typeObjectName,
} from './eventsNamespace';
import type { CompiledEventType } from './eventTypes';
import { type LastError, postSigned } from './postSigned';
import { shapeEvent } from './shapeEvent';
import { SubscriptionTables, type Subscription } from './subscriptionTables';

/** Sends at most this many POSTs at once: an invocation has six connections. */
const PARALLEL_POSTS = 6;
/** Deliveries one alarm sends before it sets the next (it comes at once). */
const POSTS_PER_ALARM = 60;

export class SubscriptionStore {
  private readonly tables: SubscriptionTables;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: WorkerEnv,
    private readonly config: EventsConfig,
  ) {
    this.tables = new SubscriptionTables(storage.sql);
  }

  /** Creates or refreshes a subscription (spec: idempotent upsert); verifies its callback first unless this principal has. */
  async subscribe(input: SubscribeInput): Promise<Outcome> {
    const { limits } = this.config;
    this.storage.kv.put('self', input.self);
    const now = Date.now();
    const live = (found: Subscription | undefined) =>
      found !== undefined && found.state !== 'terminated' && found.expires_at > now;
    if (!live(this.tables.get(input.id)) && this.tables.liveCount(now) >= limits.subscriptionsPerPrincipal)
      return tooManySubscriptions(limits.subscriptionsPerPrincipal);
    if (!this.tables.verified(input.url, now - limits.verifiedForMs)) {
      const refused = await this.verify(input);
      if (refused) return refused;
      this.tables.markVerified(input.url, Date.now());
    }
    const at = Date.now();
    const existing = this.tables.get(input.id);
    const refresh = live(existing);
    // Checked again: another subscribe may have taken the last place while the callback answered.
    if (!refresh && this.tables.liveCount(at) >= limits.subscriptionsPerPrincipal)
      return tooManySubscriptions(limits.subscriptionsPerPrincipal);
    const granted = grantTtl(input.ttlMs, limits);
    const status = refresh && existing ? deliveryStatus(existing) : undefined;
    if (refresh && existing) this.tables.refresh(existing, input, at + granted, at, limits.rotationGraceMs);
    else this.tables.create(input, at, at + granted);
    const ring = await objectNamed(this.namespace(), typeObjectName(input.name)).addSubscriber(input.self);
    const cursor = this.watermark(input.id, ring.head, ring.epoch);
    const truncated = !refresh && input.cursor !== null && input.cursor !== cursor;
    this.reschedule();
    return {
      result: {
        id: input.id,
        refreshBefore: new Date(at + granted).toISOString(),
        cursor,
        truncated,
        ...(status ? { deliveryStatus: status } : {}),
      },
    };
  }

  async unsubscribe(id: string): Promise<boolean> {
    const found = this.tables.get(id);
    if (!found || found.state === 'terminated') return false;
    this.tables.remove(id);
    await this.leaveIfLast(found.name);
    this.reschedule();
    return true;
  }

  /**
   * Queues an emitted event for each of this principal's live subscriptions to `name` made before
   * it was accepted, as that subscription gets it (`match`, `transform`); an event seen already
   * (the fan-out retried a page) is ignored. How many live subscriptions to `name` there are.
   */
  async accept(name: string, event: RingEvent, epoch: string): Promise<number> {
    const now = Date.now();
    const type = this.config.types.get(name);
    const subscriptions = this.tables.forEvent(name, now);
    if (!type || event.seq <= this.tables.lastSeen(name)) return subscriptions.length;
    this.tables.seen(name, event.seq);
    const occurrence = JSON.parse(event.occurrence) as EventOccurrence;
    for (const subscription of subscriptions) {
      if (subscription.created_at > event.acceptedAt) continue;
      const body = await this.shaped(type, subscription, occurrence);
      if (body === undefined) continue;
      if (body instanceof Terminated) {
        this.terminate(subscription, body.error);
        continue;
      }
      if (this.tables.pendingCount(subscription.id) >= this.config.limits.pendingPerSubscription) {
        // Skipped, never queued past the bound: the client hears of it by a `gap` envelope.
        this.tables.markGap(subscription.id);
        continue;
      }
      this.tables.queue(subscription.id, occurrence.eventId, body, event.seq, now);
    }
    this.storage.kv.put('epoch', epoch);
    this.reschedule();
    const left = this.tables.forEvent(name, now).length;
    if (left === 0) await this.leaveIfLast(name);
    return left;
  }

  /** Sends what is due, expires what is over, and sets the next alarm. */
  async alarm(): Promise<void> {
    const now = Date.now();
    for (const expired of this.tables.expired(now)) {
      this.tables.remove(expired.id);
      await this.leaveIfLast(expired.name).catch(() => {});
    }
    const due = this.tables.due(now, POSTS_PER_ALARM);
    for (let i = 0; i < due.length; i += PARALLEL_POSTS)
      await Promise.all(due.slice(i, i + PARALLEL_POSTS).map((delivery) => this.send(delivery)));
    this.reschedule();
  }

  /** The event's body for this subscription, undefined when it is not for it, or the termination its access calls for. */
  private async shaped(
    type: CompiledEventType,
    subscription: Subscription,
    occurrence: EventOccurrence,
  ): Promise<string | Terminated | undefined> {
    const caller = JSON.parse(subscription.caller);
    // spec extensions/events, Authorization: delivery-time re-verification; a principal that may no
    // longer see the event type is told its subscription ended.
    if (refusalFor(type.definition, caller, this.config.scopeHierarchy) !== undefined)
      return new Terminated(ACCESS_REVOKED);
    const checked = await type.readArguments(JSON.parse(subscription.args) as JsonObject);
    if (checked.why !== undefined)
      return new Terminated({
        code: EventErrorCode.Unsupported,
        message: 'Unsupported',
        data: { feature: 'inputSchema', reason: 'schema_changed' },
      });
    const shaped = await shapeEvent(type, occurrence, checked.value, { env: this.env, caller });
    if (!shaped) return undefined;
    const body = JSON.stringify(shaped);
    const { payloadBytes } = this.config.limits;
    if (body.length * 3 > payloadBytes && new TextEncoder().encode(body).byteLength > payloadBytes) {
      console.error(
        `events: a ${type.definition.name} event to ${subscription.id} was skipped: over ${payloadBytes} bytes once shaped`,
      );
      return undefined;
    }
    return body;
  }

  /** Ends a subscription the server may no longer serve: its deliveries dropped, a `terminated` envelope sent. */
  private terminate(subscription: Subscription, error: ErrorData): void {
    this.tables.terminate(subscription.id);
    this.tables.queue(
      subscription.id,
      controlId('terminated'),
      JSON.stringify({ type: 'terminated', error }),
      null,
      Date.now(),
    );
  }

  /** One attempt of one delivery, and what it leaves: done, due again later, or given up. */
  private async send(delivery: ReturnType<SubscriptionTables['due']>[number]): Promise<void> {
    const { limits } = this.config;
    const subscription = this.tables.get(delivery.subscription);
    if (!subscription) return void this.tables.drop(delivery.seq);
    const now = Date.now();
    const secrets =
      subscription.previous_secret && (subscription.previous_until ?? 0) > now
        ? [subscription.secret, subscription.previous_secret]
        : [subscription.secret];
    const body =
      delivery.event_seq === null
        ? delivery.body
        : `${delivery.body.slice(0, -1)},"cursor":${JSON.stringify(this.eventCursor(subscription.id, delivery.event_seq))}}`;
    const outcome = await postSigned({
      url: subscription.url,
      subscriptionId: subscription.id,
      webhookId: delivery.webhook_id,
      body,
      secrets,
      timeoutMs: limits.deliveryTimeoutMs,
    });
    const at = Date.now();
    const attempts = delivery.attempts + 1;
    if (outcome.ok) {
      this.tables.drop(delivery.seq);
      this.tables.delivered(subscription.id, at);
    } else {
      this.tables.failed(subscription.id, outcome.error, at, limits.suspendAfterFailures);
      if (outcome.retry && attempts < limits.attempts)
        this.tables.retryAt(delivery.seq, attempts, at + limits.retryBaseMs * 4 ** (attempts - 1));
      else this.tables.drop(delivery.seq);
    }
    if (this.tables.pendingCount(subscription.id) > 0) return;
    if (subscription.state === 'terminated') {
      this.tables.remove(subscription.id);
      await this.leaveIfLast(subscription.name).catch(() => {});
    } else if (this.tables.takeGap(subscription.id)) {
      const epoch = this.storage.kv.get<string>('epoch');
      const cursor =
        epoch === undefined || this.config.types.get(subscription.name)?.definition.check
          ? null
          : ringCursor(epoch, this.tables.lastSeen(subscription.name));
      this.tables.queue(subscription.id, controlId('gap'), JSON.stringify({ type: 'gap', cursor }), null, at);
    }
  }

  /** The cursor an event at `seq` carries: everything before it done, else the place before the first still pending (the sketch's watermark). */
  private eventCursor(id: string, seq: number): string | null {
    const epoch = this.storage.kv.get<string>('epoch');
    const subscription = this.tables.get(id);
    if (epoch === undefined || !subscription || this.config.types.get(subscription.name)?.definition.check) return null;
    const first = this.tables.firstPendingSeq(id);
    return ringCursor(epoch, first !== undefined && first < seq ? first - 1 : seq);
  }

  /** The subscribe answer's cursor: the place before the first event still pending, else the ring's head. */
  private watermark(id: string, head: number, epoch: string): string | null {
    const subscription = this.tables.get(id);
    if (subscription && this.config.types.get(subscription.name)?.definition.check) return null;
    this.storage.kv.put('epoch', epoch);
    const first = this.tables.firstPendingSeq(id);
    return ringCursor(
      epoch,
      first !== undefined ? first - 1 : Math.max(head, this.tables.lastSeen(subscription?.name ?? '')),
    );
  }

  /** The handshake (spec extensions/events, Endpoint verification): a signed single-use challenge the callback echoes in a 2xx body. */
  private async verify(input: SubscribeInput): Promise<Outcome | undefined> {
    const { limits } = this.config;
    const host = new URL(input.url).host;
    const admitted = await objectNamed(this.namespace(), hostObjectName(host)).admitVerification(
      limits.verificationsPerHostPerMinute,
    );
    // A rate: the host's budget is a minute's, so the same subscribe passes once the minute is over (429, Retry-After).
    if (!admitted)
      return {
        error: errorData(
          rateReached(
            'verificationsPerHost',
            limits.verificationsPerHostPerMinute,
            'this callback host has had as many verification requests this minute as it may; retry later',
            60 - (Math.floor(Date.now() / 1000) % 60),
          ),
        ),
      };
    const challenge = controlId('challenge').slice('msg_challenge_'.length);
    const outcome = await postSigned(
      {
        url: input.url,
        subscriptionId: input.id,
        webhookId: controlId('verification'),
        body: JSON.stringify({ type: 'verification', challenge }),
        secrets: [input.secret],
        timeoutMs: limits.deliveryTimeoutMs,
      },
      true,
    );
    if (!outcome.ok) return callbackFailed(outcome.error);
    return echoed(outcome.text, challenge) ? undefined : callbackFailed('challenge_failed');
  }

  private namespace(): DurableObjectNamespace {
    return (this.env as unknown as Record<string, DurableObjectNamespace>)[this.config.binding]!;
  }

  /** Leaves the index of `name` when no live subscription to it is left here. */
  private async leaveIfLast(name: string): Promise<void> {
    if (this.tables.forEvent(name, Date.now()).length > 0) return;
    const self = this.storage.kv.get<string>('self');
    if (self) await objectNamed(this.namespace(), typeObjectName(name)).removeSubscriber(self);
  }

  /** The alarm at the next delivery due or the next expiry; none when there is neither. */
  private reschedule(): void {
    const next = this.tables.nextWake();
    if (next === undefined) void this.storage.deleteAlarm();
    else void this.storage.setAlarm(Math.max(next, Date.now()));
  }
}

class Terminated {
  constructor(readonly error: ErrorData) {}
}

/** The TTL granted (spec extensions/events, Subscription TTL): at most what was asked, at least the floor; never no expiry. */
function grantTtl(asked: number | null | undefined, limits: EventsConfig['limits']): number {
  if (asked === undefined) return limits.defaultTtlMs;
  if (asked === null) return limits.maxTtlMs;
  return Math.min(limits.maxTtlMs, Math.max(limits.minTtlMs, asked));
}

/** `deliveryStatus` of a refresh, before it reactivates the subscription; `lastError` a category only. */
function deliveryStatus(subscription: Subscription): JsonObject {
  return {
    active: subscription.state === 'active',
    lastDeliveryAt:
      subscription.last_delivery_at === null ? null : new Date(subscription.last_delivery_at).toISOString(),
    lastError: subscription.last_error,
    ...(subscription.failed_since !== null ? { failedSince: new Date(subscription.failed_since).toISOString() } : {}),
  };
}

/** A quota: the same subscribe meets it again until one is unsubscribed or expires (./eventErrors.ts: a 400). */
const tooManySubscriptions = (max: number): Outcome => ({
  error: errorData(quotaReached('subscriptions', max, 'this principal holds as many webhook subscriptions as it may')),
});

const callbackFailed = (reason: LastError): Outcome => ({ error: errorData(callbackEndpointError(reason)) });

/** True when `text` is `{"challenge": challenge}`, compared in constant time. */
function echoed(text: string | undefined, challenge: string): boolean {
  if (text === undefined) return false;
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return false;
  }
  const given = (answer as { challenge?: unknown } | null)?.challenge;
  if (typeof given !== 'string' || given.length !== challenge.length) return false;
  let difference = 0;
  for (let i = 0; i < given.length; i++) difference |= given.charCodeAt(i) ^ challenge.charCodeAt(i);
  return difference === 0;
}
