/**
 * Reading an emit-only event type's ring for one poll or stream (spec extensions/events, Cursor
 * Lifecycle, Emit-only event types): where a cursor starts (null: now; one of another epoch, or
 * past the ring's oldest, starts later with `truncated: true`), and the events after it as this
 * caller gets them, their `maxAgeMs` floor applied.
 */
import { invalidParams, type McpError } from '../mcp/internal.js';
import type { EventContext, EventOccurrence } from './defineEventType.js';
import { placeIn, ringCursor } from './eventsConfig.js';
import type { EventsApi, RingEvent } from './eventsNamespace.js';
import type { CompiledEventType } from './eventTypes.js';
import { shapeEvent } from './shapeEvent.js';

/** A cursor of a ring: its epoch and a place in it. */
export const RING_CURSOR = /^[0-9a-f]{8}\.\d{1,15}$/;

interface RingStart {
  epoch: string;
  /** The place of the latest event kept. */
  head: number;
  /** The place after which events are read. */
  after: number;
  truncated: boolean;
}

/** Where a cursor starts in the ring, or -32602 for text that is no cursor of this server. */
export async function ringStart(typeObject: EventsApi, cursor: unknown): Promise<RingStart | McpError> {
  if (cursor !== undefined && cursor !== null && !(typeof cursor === 'string' && RING_CURSOR.test(cursor)))
    return invalidParams('params.cursor must be a cursor this server gave, or null');
  const { epoch, head, tail } = await typeObject.read(0, 0);
  if (typeof cursor !== 'string') return { epoch, head, after: head, truncated: false };
  const at = placeIn(cursor, epoch);
  // Another epoch (the ring started again) or a place never given: start from now, and say events may be missing.
  if (at === undefined || at > head) return { epoch, head, after: head, truncated: true };
  if (at < tail - 1) return { epoch, head, after: tail - 1, truncated: true };
  return { epoch, head, after: at, truncated: false };
}

interface ShapedBatch {
  events: (EventOccurrence & { seq: number })[];
  /** The place after the last event read (shown or not). */
  after: number;
  /** Events read past the `maxAgeMs` floor. */
  skipped: boolean;
  hasMore: boolean;
}

/** Up to `limit` events after `after`, shaped for the caller; those older than `maxAgeMs` skipped. */
export async function readShaped(
  typeObject: EventsApi,
  type: CompiledEventType,
  args: unknown,
  context: EventContext,
  after: number,
  limit: number,
  maxAgeMs: number | undefined,
): Promise<ShapedBatch> {
  const read = await typeObject.read(after, limit);
  return shapeBatch(
    type,
    args,
    context,
    read.events,
    after,
    maxAgeMs,
    read.events.length === limit && read.head > after + limit,
  );
}

/** Events already read (a waiter's) shaped the same way. */
export async function shapeBatch(
  type: CompiledEventType,
  args: unknown,
  context: EventContext,
  events: readonly RingEvent[],
  after: number,
  maxAgeMs: number | undefined,
  hasMore = false,
): Promise<ShapedBatch> {
  const floor = maxAgeMs === undefined ? 0 : Date.now() - maxAgeMs;
  const shaped: ShapedBatch['events'] = [];
  let skipped = false;
  let last = after;
  for (const event of events) {
    if (event.seq <= last) continue;
    last = event.seq;
    if (event.acceptedAt < floor) {
      skipped = true;
      continue;
    }
    const occurrence = await shapeEvent(type, JSON.parse(event.occurrence) as EventOccurrence, args, context);
    if (occurrence) shaped.push({ ...occurrence, seq: event.seq });
  }
  return { events: shaped, after: last, skipped, hasMore };
}

export { ringCursor };
