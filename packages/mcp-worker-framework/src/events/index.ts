/**
 * MCP Events (docs/events.md; spec extensions/events, the design sketch): event types an agent
 * subscribes to, delivered by webhook (signed per Standard Webhooks), long poll or push, on
 * Durable Objects that sleep while nothing happens. Turned on in src/index.ts:
 *
 *   const worker = createWorker(serverDefinition, { extensions: [events({ types: [incidentCreated] })] });
 *   export class McpEvents extends worker.McpEvents {}
 *
 * with the events block of wrangler.toml; then `emit(env, { name, data, eventId })` from anywhere
 * that has `env`.
 */
import type { CompiledServer, Extension } from '../mcp/internal';
import type { AnyEventType } from './defineEventType';
import { EVENT_LIMITS, type EventLimits } from './eventLimits';
import type { EventsConfig } from './eventsConfig';
import { eventsList } from './eventsList';
import { type EventsObjectClass, eventsObject } from './eventsObject';
import { compileEventTypes } from './eventTypes';
import { DEFAULT_BINDING } from './emit';
import { webhookMethods } from './webhookMethods';

export {
  defineEventType,
  type AnyEventType,
  type CheckResult,
  type EventContext,
  type EventOccurrence,
  type EventTypeDefinition,
} from './defineEventType';
export { emit, type EmitOptions, type EmittedEvent } from './emit';
export { EVENT_LIMITS, type EventLimits } from './eventLimits';
export type { DeliveryMode } from './eventTypes';

export interface EventsOptions {
  /** The event types served, each a value in its own file (`defineEventType`). */
  types: readonly AnyEventType[];
  /** The Durable Object binding (`[[durable_objects.bindings]]`); default `MCP_EVENTS`. */
  binding?: string;
  /** Bounds and timings other than the defaults of `EVENT_LIMITS` (docs/events.md, "Limits"). */
  limits?: Partial<EventLimits>;
}

/** The events feature: the value `extensions` lists, with the class createWorker returns as `McpEvents`. */
export interface Events extends Extension {
  /** The shape of createWorker's `ExtensionObject` (this layer does not import createWorker). */
  readonly durableObject: { readonly name: 'McpEvents'; make(server: CompiledServer): EventsObjectClass };
}

export function events(options: EventsOptions): Events {
  if (!options || !Array.isArray(options.types) || options.types.length === 0)
    throw new Error('events({ types }): list the event types served, e.g. events({ types: [incidentCreated] })');
  const types = compileEventTypes(options.types);
  const limits = { ...EVENT_LIMITS, ...options.limits };
  for (const [name, value] of Object.entries(limits))
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`events({ limits }): ${name} must be a whole number, not ${String(value)}`);
  const binding = options.binding ?? DEFAULT_BINDING;
  const configOf = (scopeHierarchy: EventsConfig['scopeHierarchy']): EventsConfig => ({
    binding,
    types,
    limits,
    scopeHierarchy,
  });
  return {
    id: 'events',
    // spec extensions/events, Capability Declaration: a top-level object of server/discover.
    protocol: { events: {} },
    install: (server) => {
      const config = configOf(server.scopeHierarchy);
      return { methods: { 'events/list': eventsList(server, config), ...webhookMethods(server, config) } };
    },
    durableObject: { name: 'McpEvents', make: (server) => eventsObject(configOf(server.scopeHierarchy)) },
  };
}
