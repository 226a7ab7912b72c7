/**
 * The one place a result becomes the JSON its client reads: in the shape of the client's
 * revision (a legacy client's without `resultType` or caching hints: `legacyShape`), serialized
 * once. The methods that serialize ahead (a list's pages, discover, a tool's result, whose size
 * is bounded as it will leave) call it themselves; `serialized` does it for every other reply, so
 * the transport only splices text.
 */
import { RawJson } from './json.js';
import { legacyShape } from './legacy.js';
import type { Reply } from './request.js';

/** `result` as JSON for a client of the legacy era (`legacy`) or not. */
export const resultJson = (result: object, legacy: boolean): string =>
  JSON.stringify(legacy ? legacyShape(result) : result);

/**
 * `reply` with its result serialized for the era, unless its method serialized it already (a
 * `RawJson`). A legacy result serialized here leaves without caching hints, as its body has none.
 */
export function serialized(reply: Reply, legacy: boolean): Reply<RawJson> {
  if (reply.result === undefined || reply.result instanceof RawJson) return reply as Reply<RawJson>;
  const result = new RawJson(resultJson(reply.result, legacy));
  return legacy || reply.cache === undefined ? { result } : { result, cache: reply.cache };
}
