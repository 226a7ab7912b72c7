/**
 * The author's `check(cursor, arguments, context)` of an event type with an upstream history
 * (spec extensions/events, Server SDK Guidance): what it returns, checked (each event's `data`
 * against `payloadSchema`, an `eventId` made for one without), or -32603 when it fails, logged by
 * type only (the upstream's answer may hold what must not reach a log).
 */
import { internalError, type McpError } from '../mcp/internal.js';
import type { CheckResult, EventContext, EventOccurrence } from './defineEventType.js';
import type { CompiledEventType } from './eventTypes.js';

export interface CheckedBatch {
  events: EventOccurrence[];
  cursor: string | null;
}

export async function runCheck(
  type: CompiledEventType,
  cursor: string | null,
  args: unknown,
  context: EventContext,
): Promise<CheckedBatch | McpError> {
  const { name, check } = type.definition as unknown as {
    name: string;
    check: (cursor: string | null, args: unknown, context: EventContext) => Promise<CheckResult<unknown>>;
  };
  let found: CheckResult<unknown>;
  try {
    found = await check(cursor, args, context);
  } catch (error) {
    console.error(`events: check of ${name} failed: ${String((error as Error)?.message ?? error).slice(0, 300)}`);
    return internalError();
  }
  if (!Array.isArray(found?.events) || !(found.cursor === null || typeof found.cursor === 'string')) {
    console.error(`events: check of ${name} returned no { events: [], cursor }`);
    return internalError();
  }
  const events: EventOccurrence[] = [];
  for (const event of found.events) {
    const why = await type.checkPayload(event?.data);
    if (why !== undefined) {
      console.error(`events: check of ${name} returned an event whose data breaks payloadSchema; skipped`);
      continue;
    }
    events.push({
      eventId: typeof event.eventId === 'string' ? event.eventId : `evt_${crypto.randomUUID()}`,
      name,
      timestamp: typeof event.timestamp === 'string' ? event.timestamp : new Date().toISOString(),
      data: event.data as EventOccurrence['data'],
    });
  }
  return { events, cursor: found.cursor };
}
