/**
 * A principal's webhook subscriptions, in its own Durable Object's SQLite (spec extensions/events,
 * Webhook-Based Delivery): durable, so they outlive a restart for the TTL they were granted; the
 * callbacks it verified (the handshake is cached per principal and URL); and the deliveries
 * waiting, each sent by the object's alarm, retried with exponential backoff and a fresh signature,
 * given up after its last attempt. The alarm is set to the next delivery due or the next expiry,
 * whichever comes first: a quiet subscription costs no duration at all.
 */
import { type JsonObject, McpError, refusalFor, type WorkerEnv } from '../mcp/internal';
import type { EventContext, EventOccurrence } from './defineEventType';
import { ACCESS_REVOKED, type ErrorData, EventErrorCode, errorData, rateReached, type WireError } from './eventErrors';
import { controlId, type EventsConfig, ringCursor } from './eventsConfig';
import {
  type EventsApi,
  hostObjectName,
  objectNamed,
  type Outcome,
  type RingEvent,
  type SubscribeInput,
  typeObjectName,
} from './eventsNamespace';
import type { CompiledEventType } from './eventTypes';
import { postSigned } from './postSigned';
import { ringStart } from './ringReader';
import { runCheck } from './runCheck';
import { shapeEvent } from './shapeEvent';
import {
  callbackFailed,
  deliveryStatus,
  echoed,
  grantTtl,
  Terminated,
  tooManySubscriptions,
} from './subscriptionAnswers';
import { type Delivery, SubscriptionTables, type Subscription } from './subscriptionTables';

/** Sends at most this many POSTs at once: an invocation has six connections. */
const PARALLEL_POSTS = 6;

/** What `check` found for a new subscription: the position after it, the events kept, whether some were skipped. */
interface CheckedStart {
  cursor: string | null;
  events: EventOccurrence[];
  truncated: boolean;
}
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
    const type = this.config.types.get(input.name)!;
    const checked = type.definition.check !== undefined;
    // A live subscription's cursor is a no-op; a new one (or one that lapsed) starts from it (spec
    // extensions/events, Subscription Identity): `check` is asked from it first, before anything is kept.
    const first = !refresh && checked ? await this.checkFrom(type, input) : undefined;
    if (first && 'error' in first) return first;
    if (refresh && existing) this.tables.refresh(existing, input, at + granted, at, limits.rotationGraceMs);
    else this.tables.create(input, at, at + granted, first?.cursor, first ? at + limits.webhookCheckEveryMs : null);
    const typeObject = objectNamed(this.namespace(), typeObjectName(input.name));
    const ring = await typeObject.addSubscriber(input.self);
    let truncated = false;
    if (first) truncated = this.queueBatch(input.id, input.cursor, first, at);
    else if (!refresh && input.cursor !== null)
      truncated = await this.replayRing(typeObject, type, this.tables.get(input.id)!, input.cursor, input.maxAgeMs);
    const cursor = checked ? this.checkedWatermark(input.id) : this.watermark(input.id, ring.head, ring.epoch);
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
    const checks = this.tables.dueChecks(now);
    for (let i = 0; i < checks.length; i += PARALLEL_POSTS)
      await Promise.all(checks.slice(i, i + PARALLEL_POSTS).map((subscription) => this.checkAgain(subscription)));
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
    const admitted = await this.admitted(type, subscription);
    if (admitted instanceof Terminated) return admitted;
    const shaped = await shapeEvent(type, occurrence, admitted.args, admitted.context);
    return shaped && this.body(type, subscription, shaped);
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
    const caller = JSON.parse(subscription.caller);
    if (refusalFor(type.definition, caller, this.config.scopeHierarchy) !== undefined)
      return new Terminated(ACCESS_REVOKED);
    const checked = await type.readArguments(JSON.parse(subscription.args) as JsonObject);
    if (checked.why !== undefined)
      return new Terminated({
        code: EventErrorCode.Unsupported,
        message: 'Unsupported',
        data: { feature: 'inputSchema', reason: 'schema_changed' },
      });
    return { args: checked.value, context: { env: this.env, caller } };
  }

  /** An event's body, or undefined (logged) when it is over the size a receiver takes. */
  private body(type: CompiledEventType, subscription: Subscription, event: EventOccurrence): string | undefined {
    const body = JSON.stringify(event);
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
    const cursor =
      delivery.event_seq !== null
        ? this.eventCursor(subscription.id, delivery.event_seq)
        : delivery.from_cursor !== null
          ? this.checkedCursor(subscription.id, delivery)
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
      const cursor = this.config.types.get(subscription.name)?.definition.check
        ? (this.tables.get(subscription.id)?.check_cursor ?? null)
        : epoch === undefined
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

  /**
   * A new subscription to a type with `check`, from the client's cursor: what `check` finds after
   * it (null: the upstream's position now, and nothing), as `replay` keeps it. Asked before the
   * subscription is kept, so a `check` that fails is this subscribe's -32603 and leaves nothing.
   */
  private async checkFrom(
    type: CompiledEventType,
    input: SubscribeInput,
  ): Promise<CheckedStart | { error: WireError }> {
    const checked = await type.readArguments(JSON.parse(input.args) as JsonObject);
    const context = { env: this.env, caller: JSON.parse(input.caller) };
    const found = await runCheck(type, input.cursor, checked.value, context);
    if (found instanceof McpError) return { error: errorData(found) };
    if (input.cursor === null) return { cursor: found.cursor, events: [], truncated: false };
    // spec extensions/events, Cursor Lifecycle: `maxAgeMs` floors the replay; an event older is skipped, and said.
    const floor = input.maxAgeMs === undefined ? -Infinity : Date.now() - input.maxAgeMs;
    const recent = found.events.filter((event) => !(Date.parse(event.timestamp) < floor));
    const room = this.config.limits.pendingPerSubscription;
    return {
      cursor: found.cursor,
      events: recent.slice(0, room),
      truncated: recent.length < found.events.length || recent.length > room,
    };
  }

  /**
   * A subscription to a type with `check`, asked again (every `webhookCheckEveryMs`, and at once
   * when the type is emitted) from where it read last: what it finds is queued, one batch at a time.
   * While the subscription has as many deliveries waiting as it may, `check` is not asked: the
   * upstream keeps its history, so nothing is skipped meanwhile.
   */
  private async checkAgain(subscription: Subscription): Promise<void> {
    const now = Date.now();
    const next = now + this.config.limits.webhookCheckEveryMs;
    const type = this.config.types.get(subscription.name);
    if (!type?.definition.check) return this.tables.checked(subscription.id, subscription.check_cursor, null);
    const admitted = await this.admitted(type, subscription);
    if (admitted instanceof Terminated) return this.terminate(subscription, admitted.error);
    const room = this.config.limits.pendingPerSubscription - this.tables.pendingCount(subscription.id);
    if (room <= 0) return this.tables.checked(subscription.id, subscription.check_cursor, next);
    const found = await runCheck(type, subscription.check_cursor, admitted.args, admitted.context);
    // A check that fails is tried again at the next turn, from the same place (logged by runCheck).
    if (found instanceof McpError) return this.tables.checked(subscription.id, subscription.check_cursor, next);
    if (found.events.length > room) this.tables.markGap(subscription.id);
    this.queueBatch(
      subscription.id,
      subscription.check_cursor,
      { cursor: found.cursor, events: found.events.slice(0, room), truncated: false },
      now,
    );
    this.tables.checked(subscription.id, found.cursor, next);
  }

  /** Queues a batch `check` found after `from`; its last event carries the batch's cursor. Whether events were skipped. */
  private queueBatch(id: string, from: string | null, batch: CheckedStart, now: number): boolean {
    const subscription = this.tables.get(id)!;
    const type = this.config.types.get(subscription.name)!;
    const last = batch.events.length - 1;
    batch.events.forEach((event, i) => {
      const body = this.body(type, subscription, event);
      if (body !== undefined)
        this.tables.queueChecked(
          id,
          event.eventId,
          body,
          JSON.stringify(from),
          i === last ? JSON.stringify(batch.cursor) : null,
          now,
        );
    });
    return batch.truncated;
  }

  /**
   * The cursor a delivery `check` found carries (the sketch's safe watermark): the batch's own
   * cursor when it is the last of its batch and nothing else waits, else the position before the
   * oldest batch still waiting.
   */
  private checkedCursor(id: string, delivery: Delivery): string | null {
    const oldest = this.tables.oldestChecked(id);
    if (!oldest || (oldest.count === 1 && delivery.to_cursor !== null)) return JSON.parse(delivery.to_cursor ?? 'null');
    return JSON.parse(oldest.from ?? 'null');
  }

  /** The subscribe answer's cursor for a type with `check`: before the oldest batch waiting, else where it was checked up to. */
  private checkedWatermark(id: string): string | null {
    const oldest = this.tables.oldestChecked(id);
    return oldest ? JSON.parse(oldest.from ?? 'null') : (this.tables.get(id)?.check_cursor ?? null);
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
      const body = await this.shaped(type, subscription, occurrence);
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
