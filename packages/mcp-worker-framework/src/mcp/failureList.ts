/**
 * What an answer about invalid input says (a tool's arguments, a structured result): a handful of
 * failures, each cut to a bounded length, however many the value has. A value may break a schema a
 * million times within the body limit; the model needs a few to fix its call, and the answer must
 * stay far below `maxResultChars` (docs/server-api.md, "Arguments that break the schema").
 */

/** At most this many failures are named. */
export const MAX_NAMED_FAILURES = 5;
/** A pointer or a message longer than this is cut: a property name may be megabytes long. */
const MAX_FAILURE_CHARS = 200;

/** One failure: where (a JSON Pointer into the value) and why. */
export interface Failure {
  at: string;
  why: string;
}

/** `/a: why; /b/0: why` for the failures given (the caller keeps them to `MAX_NAMED_FAILURES`), and how many more when known. */
export function failureList(named: readonly Failure[], more = 0): string {
  const list = named.map(({ at, why }) => `${clip(at)}: ${clip(why)}`).join('; ');
  return more > 0 ? `${list} (and ${more} more)` : list;
}

const clip = (text: string) => (text.length > MAX_FAILURE_CHARS ? `${text.slice(0, MAX_FAILURE_CHARS - 1)}…` : text);
