/**
 * Webhook subscriptions to an event type backed by `check` (spec extensions/events, Server SDK
 * Guidance: the same check function backs every delivery mode): a new one starts from the
 * client's cursor, then its principal's object asks `check` again from where it read, every
 * `webhookCheckEveryMs` and at once on an emit of the type, and queues what it finds. Each event
 * carries the upstream's cursor as the sketch's safe watermark: the position after it only when
 * nothing before it still waits.
 */
import { type JsonObject, McpError } from '../mcp/internal.js';
import type { EventContext, EventOccurrence } from './defineEventType.js';
import { errorData, type WireError } from './eventErrors.js';
import type { EventsConfig } from './eventsConfig.js';
import type { SubscribeInput } from './eventsNamespace.js';
import type { CompiledEventType } from './eventTypes.js';
import { runCheck } from './runCheck.js';
import { eventBody } from './shapeEvent.js';
import type { Delivery, Subscription, SubscriptionTables } from './subscriptionTables.js';

/** What `check` found for a new subscription: the position after it, the events kept, whether some were skipped. */
interface CheckedStart {
  cursor: string | null;
  events: EventOccurrence[];
  truncated: boolean;
}

export class CheckedFeed {
  constructor(
    private readonly tables: SubscriptionTables,
    private readonly config: EventsConfig,
    private readonly env: EventContext['env'],
  ) {}

  /**
   * A new subscription to a type with `check`, from the client's cursor: what `check` finds after
   * it (null: the upstream's position now, and nothing), as `replay` keeps it. Asked before the
   * subscription is kept, so a `check` that fails is this subscribe's -32603 and leaves nothing.
   */
  async start(type: CompiledEventType, input: SubscribeInput): Promise<CheckedStart | { error: WireError }> {
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
  async again(
    subscription: Subscription,
    type: CompiledEventType,
    args: unknown,
    context: EventContext,
  ): Promise<void> {
    const now = Date.now();
    const next = now + this.config.limits.webhookCheckEveryMs;
    const room = this.config.limits.pendingPerSubscription - this.tables.pendingCount(subscription.id);
    if (room <= 0) return this.tables.checked(subscription.id, subscription.check_cursor, next);
    const found = await runCheck(type, subscription.check_cursor, args, context);
    // A check that fails is tried again at the next turn, from the same place (logged by runCheck).
    if (found instanceof McpError) return this.tables.checked(subscription.id, subscription.check_cursor, next);
    if (found.events.length > room) this.tables.markGap(subscription.id);
    this.queue(
      subscription.id,
      subscription.check_cursor,
      { cursor: found.cursor, events: found.events.slice(0, room), truncated: false },
      now,
    );
    this.tables.checked(subscription.id, found.cursor, next);
  }

  /** Queues a batch `check` found after `from`; its last event carries the batch's cursor. Whether events were skipped. */
  queue(id: string, from: string | null, batch: CheckedStart, now: number): boolean {
    const subscription = this.tables.get(id)!;
    const type = this.config.types.get(subscription.name)!;
    const last = batch.events.length - 1;
    batch.events.forEach((event, i) => {
      const body = eventBody(type, id, event, this.config.limits.payloadBytes);
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
  cursorOf(id: string, delivery: Delivery): string | null {
    const oldest = this.tables.oldestChecked(id);
    if (!oldest || (oldest.count === 1 && delivery.to_cursor !== null)) return JSON.parse(delivery.to_cursor ?? 'null');
    return JSON.parse(oldest.from ?? 'null');
  }

  /** The subscribe answer's cursor for a type with `check`: before the oldest batch waiting, else where it was checked up to. */
  watermark(id: string): string | null {
    const oldest = this.tables.oldestChecked(id);
    return oldest ? JSON.parse(oldest.from ?? 'null') : (this.tables.get(id)?.check_cursor ?? null);
  }
}
