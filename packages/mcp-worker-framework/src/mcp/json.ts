/**
 * JSON values as the core handles them: a guard for plain objects, and a result already
 * serialized, which the transport splices into its answer as it is.
 */
import type { JsonObject } from './types.js';

/** True for a JSON object (not an array, not null). */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A result already serialized to JSON (a list page, a tool result): written once, sent as it is. */
export class RawJson {
  constructor(readonly json: string) {}
}
