/**
 * A principal's webhook subscriptions, in its own Durable Object's SQLite (spec extensions/events,
 * Webhook-Based Delivery): durable, so they outlive a restart for the TTL they were granted; the
 * callbacks it verified (the handshake is cached per principal and URL); and the deliveries
 * waiting, each sent by the object's alarm, retried with exponential backoff and a fresh signature,
 * given up after its last attempt. The alarm is set to the next delivery due, the next `check` of
 * a subscription to a type backed by one (./checkedFeed.ts), or the next expiry, whichever comes
 * first: a quiet subscription to an emit-only type costs no duration at all.
 */
import { type Caller, type JsonObject, McpError, refusalFor, type WorkerEnv } from '../mcp/internal.js';
import type { EventContext, EventOccurrence } from './defineEventType.js';
import { ACCESS_REVOKED, type ErrorData, EventErrorCode, errorData, rateReached } from './eventErrors.js';
import { controlId, type EventsConfig, ringCursor } from './eventsConfig.js';
import {
  type EventsApi,
  type EventsNamespace,
  eventsNamespace,
  hostObjectName,
  objectNamed,
  type Outcome,
  type RingEvent,
  type SubscribeInput,
  typeObjectName,
} from './eventsNamespace.js';
import type { Checked, CompiledEventType } from './eventTypes.js';
import { CheckedFeed } from './checkedFeed.js';
import { type PostOutcome, postSigned } from './postSigned.js';
import { ringStart } from './ringReader.js';
import { eventBody, shapeEvent } from './shapeEvent.js';
import {
  callbackFailed,
  deliveryStatus,
  echoed,
  grantTtl,
  Terminated,
  tooManySubscriptions,
} from './subscriptionAnswers.js';
import { type Delivery, SubscriptionTables, type Subscription } from './subscriptionTables.js';

/** Sends at most this many POSTs at once: an invocation has six connections. */
const PARALLEL_POSTS = 6;

/** Deliveries one alarm sends before it sets the next (it comes at once). */
const POSTS_PER_ALARM = 60;

export class SubscriptionStore {
  private readonly tables: SubscriptionTables;
  private readonly feed: CheckedFeed;
  /** What each event would otherwise parse and check again, by the text kept: subscribers and their checked arguments. */
  private readonly callers = new Map<string, Caller>();
  private readonly arguments = new Map<string, Checked | Promise<Checked>>();

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: WorkerEnv,
    private readonly config: EventsConfig,
  ) {
    this.tables = new SubscriptionTables(storage.sql);
    this.feed = new CheckedFeed(this.tables, config, env);
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
    const type = this.config.types.get(input.name)!;
    const checked = type.definition.check !== undefined;
    // A live subscription's cursor is a no-op; a new one (or one that lapsed) starts from it (spec
    // extensions/events, Subscription Identity): `check` is asked from it first, before anything is kept.
    const first = !refresh && checked ? await this.feed.start(type, input) : undefined;
    if (first && 'error' in first) return first;
    if (refresh && existing) this.tables.refresh(existing, input, at + granted, at, limits.rotationGraceMs);
    else this.tables.create(input, at, at + granted, first?.cursor, first ? at + limits.webhookCheckEveryMs : null);
    const typeObject = objectNamed(this.namespace(), typeObjectName(input.name));
    const ring = await typeObject.addSubscriber(input.self);
    let truncated = false;
    if (first) truncated = this.feed.queue(input.id, input.cursor, first, at);
    else if (!refresh && input.cursor !== null)
      truncated = await this.replayRing(typeObject, type, this.tables.get(input.id)!, input.cursor, input.maxAgeMs);
    const cursor = checked ? this.feed.watermark(input.id) : this.watermark(input.id, ring.head, ring.epoch);
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
    // A type with `check`: its emit says the upstream moved, and `check` tells each subscription what (as poll and push do).
    if (type?.definition.check) {
      this.tables.checkNow(name, now);
      this.reschedule();
      return subscriptions.length;
    }
    if (!type || event.seq <= this.tables.lastSeen(name)) return subscriptions.length;
    this.tables.seen(name, event.seq);
    const occurrence = JSON.parse(event.occurrence) as EventOccurrence;
    const shaped: [Subscription, string | Terminated][] = [];
    for (const subscription of subscriptions) {
      if (subscription.created_at > event.acceptedAt) continue;
      const body = await this.shaped(type, subscription, occurrence, event.occurrence);
      if (body !== undefined) shaped.push([subscription, body]);
    }
    let left = subscriptions.length;
    // One transaction for what the event leaves in every subscription.
    this.storage.transactionSync(() => {
      for (const [subscription, body] of shaped) {
        if (body instanceof Terminated) {
          this.terminate(subscription, body.error);
          left--;
        } else if (this.tables.pendingCount(subscription.id) >= this.config.limits.pendingPerSubscription)
          // Skipped, never queued past the bound: the client hears of it by a `gap` envelope.
          this.tables.markGap(subscription.id);
        else this.tables.queue(subscription.id, occurrence.eventId, body, event.seq, now);
      }
      if (this.storage.kv.get<string>('epoch') !== epoch) this.storage.kv.put('epoch', epoch);
    });
    this.reschedule();
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
    const checks = this.tables.dueChecks(now);
    for (let i = 0; i < checks.length; i += PARALLEL_POSTS)
      await Promise.all(checks.slice(i, i + PARALLEL_POSTS).map((subscription) => this.checkAgain(subscription)));
    const due = this.tables.due(now, POSTS_PER_ALARM);
    for (let i = 0; i < due.length; i += PARALLEL_POSTS) {
      const sent = await Promise.all(due.slice(i, i + PARALLEL_POSTS).map((delivery) => this.send(delivery)));
      // One transaction for what the batch's answers leave: a commit per batch, not one per write.
      const left = this.storage.transactionSync(() => sent.map((one) => one && this.settle(one)));
      for (const name of new Set(left)) if (name) await this.leaveIfLast(name).catch(() => {});
    }
    this.reschedule();
  }

  /** The event's body for this subscription, undefined when it is not for it, or the termination its access calls for. */
  private async shaped(
    type: CompiledEventType,
    subscription: Subscription,
    occurrence: EventOccurrence,
    text: string,
  ): Promise<string | Terminated | undefined> {
    const admitted = await this.admitted(type, subscription);
    if (admitted instanceof Terminated) return admitted;
    const shaped = await shapeEvent(type, occurrence, admitted.args, admitted.context);
    // Not transformed: the text the type's object kept (and bounded at emit) is the body, serialized once for all.
    if (shaped === occurrence) return text;
    return shaped && eventBody(type, subscription.id, shaped, this.config.limits.payloadBytes);
  }

  /**
   * spec extensions/events, Authorization: delivery-time re-verification. The subscriber's
   * arguments as the hooks get them and its context, or the termination its access calls for: a
   * principal that may no longer see the type, or arguments the type's `inputSchema` now refuses.
   */
  private async admitted(
    type: CompiledEventType,
    subscription: Subscription,
  ): Promise<{ args: unknown; context: EventContext } | Terminated> {
    const caller = remembered(this.callers, subscription.caller, () => JSON.parse(subscription.caller) as Caller);
    if (refusalFor(type.definition, caller, this.config.scopeHierarchy) !== undefined)
      return new Terminated(ACCESS_REVOKED);
    // The arguments are checked once per object (their schema changes only with a deploy, which starts it again).
    const checked = await remembered(this.arguments, `${type.definition.name}\n${subscription.args}`, () =>
      type.readArguments(JSON.parse(subscription.args) as JsonObject),
    );
    if (checked.why !== undefined)
      return new Terminated({
        code: EventErrorCode.Unsupported,
        message: 'Unsupported',
        data: { feature: 'inputSchema', reason: 'schema_changed' },
      });
    return { args: checked.value, context: { env: this.env, caller } };
  }

  /** A subscription to a type with `check`, due to be asked again (./checkedFeed.ts), unless its access ended. */
  private async checkAgain(subscription: Subscription): Promise<void> {
    const type = this.config.types.get(subscription.name);
    if (!type?.definition.check) return this.tables.checked(subscription.id, subscription.check_cursor, null);
    const admitted = await this.admitted(type, subscription);
    if (admitted instanceof Terminated) return this.terminate(subscription, admitted.error);
    await this.feed.again(subscription, type, admitted.args, admitted.context);
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

  /** One attempt of one delivery: the POST, signed; what it leaves is written by `settle`. */
  private async send(delivery: Delivery): Promise<Sent | undefined> {
    const { limits } = this.config;
    const subscription = this.tables.get(delivery.subscription);
    if (!subscription) return void this.tables.drop(delivery.seq);
    const now = Date.now();
    const secrets =
      subscription.previous_secret && (subscription.previous_until ?? 0) > now
        ? [subscription.secret, subscription.previous_secret]
        : [subscription.secret];
    const cursor =
      delivery.event_seq !== null
        ? this.eventCursor(subscription, delivery.event_seq)
        : delivery.from_cursor !== null
          ? this.feed.cursorOf(subscription.id, delivery)
          : undefined;
    // An event's cursor is added as it is sent: the watermark moves as the deliveries before it are done.
    const body =
      cursor === undefined ? delivery.body : `${delivery.body.slice(0, -1)},"cursor":${JSON.stringify(cursor)}}`;
    const outcome = await postSigned({
      url: subscription.url,
      subscriptionId: subscription.id,
      webhookId: delivery.webhook_id,
      body,
      secrets,
      timeoutMs: limits.deliveryTimeoutMs,
    });
    return { delivery, subscription, outcome, at: Date.now() };
  }

  /**
   * What an attempt leaves: done, due again later, or given up; then, once a subscription has
   * nothing waiting, its end or its `gap` envelope. Synchronous, so the writes of a whole batch of
   * attempts go in one transaction. The name of a type this object may leave, when it may.
   */
  private settle({ delivery, subscription, outcome, at }: Sent): string | undefined {
    const { limits } = this.config;
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
      return subscription.name;
    }
    if (subscription.gap === 1 && this.tables.takeGap(subscription.id)) {
      const epoch = this.storage.kv.get<string>('epoch');
      const cursor = this.config.types.get(subscription.name)?.definition.check
        ? (this.tables.get(subscription.id)?.check_cursor ?? null)
        : epoch === undefined
          ? null
          : ringCursor(epoch, this.tables.lastSeen(subscription.name));
      this.tables.queue(subscription.id, controlId('gap'), JSON.stringify({ type: 'gap', cursor }), null, at);
    }
    return undefined;
  }

  /** The cursor an event at `seq` carries: everything before it done, else the place before the first still pending (the sketch's watermark). */
  private eventCursor(subscription: Subscription, seq: number): string | null {
    const epoch = this.storage.kv.get<string>('epoch');
    if (epoch === undefined || this.config.types.get(subscription.name)?.definition.check) return null;
    const first = this.tables.firstPendingSeq(subscription.id);
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

  /**
   * A new subscription to an emit-only type, from the client's cursor: the events the type's ring
   * still holds after it that were kept before the subscription was (those after come by fan-out),
   * as the subscription gets them, at most `pendingPerSubscription` of the latest. Whether events
   * were skipped (spec extensions/events, Gaps and `truncated`): a cursor of another epoch or past
   * the ring's oldest, the bound, or the `maxAgeMs` floor.
   */
  private async replayRing(
    typeObject: EventsApi,
    type: CompiledEventType,
    subscription: Subscription,
    cursor: string,
    maxAgeMs: number | undefined,
  ): Promise<boolean> {
    const start = await ringStart(typeObject, cursor);
    if (start instanceof McpError) return true;
    const room = this.config.limits.pendingPerSubscription;
    let { after, truncated } = start;
    if (start.head - after > room) {
      after = start.head - room;
      truncated = true;
    }
    const floor = maxAgeMs === undefined ? 0 : Date.now() - maxAgeMs;
    for (const event of (await typeObject.read(after, room)).events) {
      if (event.acceptedAt > subscription.created_at) break;
      if (event.acceptedAt < floor) {
        truncated = true;
        continue;
      }
      const occurrence = JSON.parse(event.occurrence) as EventOccurrence;
      const body = await this.shaped(type, subscription, occurrence, event.occurrence);
      if (body instanceof Terminated) return truncated;
      if (body !== undefined) this.tables.queue(subscription.id, occurrence.eventId, body, event.seq, Date.now());
    }
    return truncated;
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

  private namespace(): EventsNamespace {
    return eventsNamespace(this.env, this.config.binding)!;
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

/** An attempt made: what was sent, to whom, and what came back. */
interface Sent {
  delivery: Delivery;
  subscription: Subscription;
  outcome: PostOutcome;
  at: number;
}

/** Entries a cache of a principal's object keeps: its subscriptions' worth, and as many again. */
const REMEMBERED = 256;

/** `make()`, kept by `key`; the oldest entry goes first when the cache is full. */
function remembered<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= REMEMBERED) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}
