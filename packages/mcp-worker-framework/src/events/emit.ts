/**
 * `emit(env, { name, data, eventId? })`: an event of one of the Worker's event types happened
 * (spec extensions/events, Server SDK Guidance, broadcast emit). Callable from anything with
 * `env`: a tool's handler (`context.env`), a route of your own (the upstream's webhook), a
 * scheduled or a queue handler, another Worker that binds the `McpEvents` class. It settles when
 * the event is durably accepted for delivery (kept in its type's object, its fan-out queued);
 * it throws when it is not: a missing binding, an unknown type, `data` that breaks the
 * `payloadSchema`, an event over the size limit, an object out of reach. Then nothing was sent.
 */
import type { JsonObject, WorkerEnv } from '../mcp/internal.js';
import { eventsNamespace, objectNamed, typeObjectName } from './eventsNamespace.js';

export interface EmittedEvent<Data extends JsonObject = JsonObject> {
  /** The event type's name. */
  name: string;
  /** The payload; checked against the type's `payloadSchema`. Keep it small: it is untrusted data to the agent. */
  data: Data;
  /** The upstream's stable id (a Stripe `evt_…`, a GitHub delivery id), kept so duplicates collapse; generated when absent. */
  eventId?: string;
  /** When it happened (ISO 8601); now when absent. */
  timestamp?: string;
}

export interface EmitOptions {
  /** The events' Durable Object binding; default `MCP_EVENTS`. */
  binding?: string;
}

export const DEFAULT_BINDING = 'MCP_EVENTS';

/** Emits one event; resolves with its `eventId` (the author's, or the one made for it). */
export async function emit(env: WorkerEnv, event: EmittedEvent, options: EmitOptions = {}): Promise<string> {
  if (typeof event !== 'object' || event === null || typeof event.name !== 'string')
    throw new TypeError('emit: give { name, data, eventId? }');
  if (event.timestamp !== undefined && Number.isNaN(Date.parse(event.timestamp)))
    throw new TypeError('emit: timestamp must be an ISO 8601 date');
  const binding = options.binding ?? DEFAULT_BINDING;
  const namespace = eventsNamespace(env, binding);
  if (!namespace)
    throw new Error(
      `emit needs the Durable Object binding ${binding}: the events block of wrangler.toml (docs/events.md)`,
    );
  const occurrence = {
    eventId: event.eventId ?? `evt_${crypto.randomUUID()}`,
    name: event.name,
    timestamp: event.timestamp ?? new Date().toISOString(),
    data: event.data,
  };
  try {
    return (await objectNamed(namespace, typeObjectName(event.name)).publish(occurrence)).eventId;
  } catch (error) {
    // A mistake of the caller's (an unknown type, data that breaks the schema) comes back as it was thrown.
    if (error instanceof TypeError) throw error;
    if (error instanceof Error && error.message.startsWith('emit: ')) throw new TypeError(error.message);
    throw new Error(`emit: the events object did not accept ${event.name}`, { cause: error });
  }
}
