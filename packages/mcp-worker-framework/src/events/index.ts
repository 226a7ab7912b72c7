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
import type { CompiledServer, Extension } from '../mcp/internal.js';
import { type EventsObjectClass, eventsObject } from './eventsObject.js';
import { type EventsOptions, eventsExtension } from './eventsExtension.js';

export {
  defineEventType,
  type AnyEventType,
  type CheckResult,
  type EventContext,
  type EventOccurrence,
  type EventTypeDefinition,
} from './defineEventType.js';
export { emit, type EmitOptions, type EmittedEvent } from './emit.js';
export { EventErrorCode } from './eventErrors.js';
export { EVENT_LIMITS, type EventLimits } from './eventLimits.js';
export type { EventsOptions } from './eventsExtension.js';
export type { DeliveryMode } from './eventTypes.js';

/** The events feature: the value `extensions` lists, with the class createWorker returns as `McpEvents`. */
export interface Events extends Extension {
  /** The shape of createWorker's `ExtensionObject` (this layer does not import createWorker). */
  readonly durableObject: {
    readonly name: 'McpEvents';
    readonly binding: string;
    make(server: CompiledServer): EventsObjectClass;
  };
}

export function events(options: EventsOptions): Events {
  const { extension, configOf, binding } = eventsExtension(options);
  return {
    ...extension,
    durableObject: { name: 'McpEvents', binding, make: (server) => eventsObject(configOf(server.scopeHierarchy)) },
  };
}
