/**
 * An emitted event as one subscription gets it (spec extensions/events, Server SDK Guidance,
 * broadcast emit): the author's `match` decides whether it receives it, `transform` shapes its
 * `data`, checked against `payloadSchema` again. The same for a webhook, a poll and a stream. An
 * event's data is untrusted: a hook that fails is logged by type, never with the data.
 */
import { bytesOver } from '../mcp/internal.js';
import type { EventContext, EventOccurrence } from './defineEventType.js';
import type { CompiledEventType } from './eventTypes.js';

type Hooks = {
  match?: (event: EventOccurrence, args: unknown, context: EventContext) => boolean;
  transform?: (event: EventOccurrence, args: unknown, context: EventContext) => EventOccurrence;
};

/** The occurrence for this subscription, or undefined when it is not for it (or a hook failed). */
export async function shapeEvent(
  type: CompiledEventType,
  occurrence: EventOccurrence,
  args: unknown,
  context: EventContext,
): Promise<EventOccurrence | undefined> {
  const { match, transform } = type.definition as unknown as Hooks;
  try {
    if (match && match(occurrence, args, context) !== true) return undefined;
    if (!transform) return occurrence;
    const { data } = transform(structuredClone(occurrence), args, context);
    const why = await type.checkPayload(data);
    if (why !== undefined) throw new Error(`its data breaks payloadSchema (${why.slice(0, 200)})`);
    return { ...occurrence, data };
  } catch (error) {
    console.error(
      `events: a ${type.definition.name} event was skipped for a subscriber: match or transform failed: ${String((error as Error)?.message ?? error).slice(0, 300)}`,
    );
    return undefined;
  }
}

/** An event's body for one subscription, or undefined (logged by type, never with the data) when it is over what a receiver takes. */
export function eventBody(
  type: CompiledEventType,
  subscriptionId: string,
  event: EventOccurrence,
  payloadBytes: number,
): string | undefined {
  const body = JSON.stringify(event);
  if (bytesOver(body, payloadBytes) !== undefined) {
    console.error(
      `events: a ${type.definition.name} event to ${subscriptionId} was skipped: over ${payloadBytes} bytes once shaped`,
    );
    return undefined;
  }
  return body;
}
