/**
 * The events extension as the core sees it (`events()` in ./index.ts adds its Durable Object
 * class): the event types compiled at load, the limits merged once, the methods it serves, and the
 * `events` capability it makes true.
 */
import type { Extension } from '../mcp/internal.js';
import type { AnyEventType } from './defineEventType.js';
import { DEFAULT_BINDING } from './emit.js';
import { EVENT_LIMITS, type EventLimits } from './eventLimits.js';
import type { EventsConfig } from './eventsConfig.js';
import { eventsList } from './eventsList.js';
import { eventsPoll } from './eventsPoll.js';
import { eventsStream } from './eventsStream.js';
import { compileEventTypes } from './eventTypes.js';
import { webhookMethods } from './webhookMethods.js';

export interface EventsOptions {
  /** The event types served, each a value in its own file (`defineEventType`). */
  types: readonly AnyEventType[];
  /** The Durable Object binding (`[[durable_objects.bindings]]`); default `MCP_EVENTS`. */
  binding?: string;
  /** Bounds and timings other than the defaults of `EVENT_LIMITS` (docs/events.md, "Limits"). */
  limits?: Partial<EventLimits>;
}

/** The extension, and how to make the configuration its Durable Objects are built from. */
export function eventsExtension(options: EventsOptions): {
  extension: Extension;
  /** Its Durable Object binding, which `mcp-worker check` looks for in wrangler.toml. */
  binding: string;
  configOf(scopeHierarchy: EventsConfig['scopeHierarchy']): EventsConfig;
} {
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
    configOf,
    binding,
    extension: {
      id: 'events',
      // spec extensions/events, Capability Declaration: a top-level object of server/discover.
      protocol: { events: {} },
      install: (server) => {
        const config = configOf(server.scopeHierarchy);
        return {
          methods: {
            'events/list': eventsList(server, config),
            'events/poll': eventsPoll(server, config),
            'events/stream': eventsStream(server, config),
            ...webhookMethods(server, config),
          },
        };
      },
    },
  };
}
