/**
 * The caller's W3C Trace Context (https://www.w3.org/TR/trace-context/), from `_meta` (spec
 * 2026-07-28 basic/index, `_meta`: "their values MUST follow W3C Trace Context") or from the
 * HTTP headers. Only a value that follows the grammar goes on to an upstream, a log line or a
 * span: anything else is dropped, as W3C Trace Context tells a receiver to do (it ignores an
 * invalid traceparent), so a client can neither inject text into an upstream's headers nor
 * bloat a log line. Section names below are those of W3C Trace Context.
 */

export interface TraceContext {
  /** Always version 00, 55 characters. */
  traceparent: string;
  /** At most `MAX_TRACESTATE_CHARS` characters, only ever with a valid `traceparent`. */
  tracestate?: string;
}

/**
 * A `tracestate` longer than this is cut, whole entries at a time ("tracestate Limits": a
 * vendor SHOULD propagate at least 512 characters, and MUST truncate whole entries).
 */
export const MAX_TRACESTATE_CHARS = 512;
/** "tracestate Header Field Values": at most 32 list members. */
const MAX_TRACESTATE_MEMBERS = 32;
/** The longest list of 32 members of the longest key (256) and value (256), with commas: longer is not read at all. */
const MAX_TRACESTATE_INPUT = MAX_TRACESTATE_MEMBERS * 514;

// "traceparent Header Field Values": version "-" trace-id "-" parent-id "-" trace-flags, lowercase hex.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;
// "list-members": key = ( lcalpha / DIGIT ) 0*255 keychar; value = up to 256 printable ASCII
// characters but "," and "=", the last not a space.
const MEMBER = /^[a-z0-9][a-z0-9_\-*/@]{0,255}=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const OWS = /^[ \t]+|[ \t]+$/g;

/** The trace context `traceparent` and `tracestate` carry, validated; undefined without a valid `traceparent`. */
export function readTraceContext(traceparent: unknown, tracestate: unknown): TraceContext | undefined {
  const parent = readTraceparent(traceparent);
  // "Tracestate Header": a tracestate is read only with a traceparent, and its failure does not affect the traceparent.
  if (parent === undefined) return undefined;
  const state = readTracestate(tracestate);
  return state === undefined ? { traceparent: parent } : { traceparent: parent, tracestate: state };
}

/**
 * A valid `traceparent`, as version 00. A version 00 value is exactly its four fields; a later
 * version ("Versioning of traceparent") is read by the fields version 00 defines, each followed
 * by the end or a "-", and passed on downgraded to version 00 ("Mutating the traceparent
 * Field"), without the fields this server cannot know. Version ff and all-zero ids are invalid.
 */
function readTraceparent(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length < 55) return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match;
  if (version === 'ff' || ALL_ZERO.test(traceId!) || ALL_ZERO.test(parentId!)) return undefined;
  if (version === '00') return rest === undefined ? value : undefined;
  return `00-${traceId}-${parentId}-${flags}`;
}

/**
 * A valid `tracestate`: its list members, without the optional whitespace and empty members,
 * joined by ","; undefined when any member breaks the grammar, a key repeats ("Only one entry
 * per key is allowed"), or there are more than 32. Longer than 512 characters, entries over 128
 * go first, then entries from the end, as "tracestate Limits" says.
 */
function readTracestate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_TRACESTATE_INPUT) return undefined;
  const members: string[] = [];
  const keys = new Set<string>();
  for (const part of value.split(',')) {
    const member = part.replace(OWS, '');
    if (member === '') continue;
    if (!MEMBER.test(member)) return undefined;
    const key = member.slice(0, member.indexOf('='));
    if (keys.has(key)) return undefined;
    keys.add(key);
    members.push(member);
  }
  if (members.length === 0 || members.length > MAX_TRACESTATE_MEMBERS) return undefined;
  let kept = members;
  const length = () => kept.reduce((sum, member) => sum + member.length + 1, -1);
  if (length() > MAX_TRACESTATE_CHARS) kept = kept.filter((member) => member.length <= 128);
  while (length() > MAX_TRACESTATE_CHARS) kept = kept.slice(0, -1);
  return kept.length === 0 ? undefined : kept.join(',');
}
