/** What the events extension's Worker side and its Durable Objects are both built from (`events(options)`). */
import type { ScopeHierarchy } from '../mcp/internal.js';
import type { EventLimits } from './eventLimits.js';
import type { CompiledEventType } from './eventTypes.js';

export interface EventsConfig {
  /** The Durable Object binding (`MCP_EVENTS`). */
  readonly binding: string;
  readonly types: ReadonlyMap<string, CompiledEventType>;
  readonly limits: EventLimits;
  /** The server's, for refusing a subscriber as the core refuses a caller. */
  readonly scopeHierarchy: ScopeHierarchy;
}

/** A random `msg_<type>_<hex>` id for a control envelope (spec extensions/events, Non-event webhook bodies). */
export const controlId = (type: string) =>
  `msg_${type}_${Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** A ring cursor: the type object's epoch (a ring that restarts from nothing has a new one) and a place in it. */
export const ringCursor = (epoch: string, seq: number) => `${epoch}.${seq}`;

/** The place a ring cursor names in the ring of `epoch`, or undefined for another epoch or text that is none. */
export function placeIn(cursor: string, epoch: string): number | undefined {
  const dot = cursor.lastIndexOf('.');
  if (cursor.slice(0, dot) !== epoch) return undefined;
  const seq = cursor.slice(dot + 1);
  return /^\d{1,15}$/.test(seq) ? Number(seq) : undefined;
}
