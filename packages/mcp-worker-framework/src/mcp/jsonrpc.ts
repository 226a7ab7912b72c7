/**
 * JSON-RPC 2.0 envelope: text in, one request or notification out (spec 2026-07-28
 * basic/index, Messages; streamable-http, Sending Messages: a POST body is a single
 * request or notification, never a batch or a response).
 */
import { duplicateName } from './duplicateName.js';
import { invalidRequest, type McpError, parseError } from './errors.js';
import { idSource, isIntegerSource, memberIdSources } from './idSource.js';
import { isObject } from './json.js';
import type { ExactInteger, JSONRPCMessage, RequestId } from './types.js';

/** Deeper JSON than this is refused before anything walks it recursively. */
export const MAX_JSON_DEPTH = 64;

/** `JSON.rawJSON` (TC39 JSON.parse source text access, shipped in V8 and so in workerd), not yet in TypeScript's lib. */
interface JsonWithSource {
  rawJSON?(text: string): ExactInteger;
  isRawJSON?(value: unknown): value is ExactInteger;
}
// A gap of TypeScript's lib, not a seam of ours: the global JSON, typed with what the runtime has.
const json = JSON as unknown as JsonWithSource;

// spec 2026-07-28 basic/index, Requests: a string or an integer, never null
const isRequestId = (id: unknown): id is RequestId =>
  typeof id === 'string' || Number.isInteger(id) || json.isRawJSON?.(id) === true;

const isUnsafeInteger = (value: unknown): value is number => Number.isInteger(value) && !Number.isSafeInteger(value);

/**
 * An integer id a double cannot hold, as its exact source (spec basic/index: the response MUST
 * include the same id): `JSON.rawJSON`, which `JSON.stringify` writes back digit for digit.
 * Only a request with such an id pays for the scan (`./idSource.ts`), bounded by the body's length.
 */
function exactIds(text: string, body: unknown): McpError | undefined {
  if (!json.rawJSON) return undefined;
  if (isObject(body) && isUnsafeInteger(body.id)) {
    const source = idSource(text);
    if (source === undefined || !isIntegerSource(source)) return invalidRequest('"id" must be a string or an integer');
    body.id = json.rawJSON(source);
  } else if (Array.isArray(body) && body.some((member) => isObject(member) && isUnsafeInteger(member.id))) {
    // Each member is served alone from its own text (src/http/transport/batch.ts): it carries its id's
    // exact source there, and its own parse decides whether that is an integer.
    const sources = memberIdSources(text);
    body.forEach((member, i) => {
      const source = sources[i];
      if (isObject(member) && isUnsafeInteger(member.id) && source !== undefined) member.id = json.rawJSON!(source);
    });
  }
  return undefined;
}

/** A POST body read as JSON-RPC: one message, or an error with the id to answer it with. */
type Parsed =
  | { message: JSONRPCMessage; error?: undefined }
  | { error: McpError; id: RequestId | null; message?: undefined; batch?: readonly unknown[] };

/** Parses a POST body into one JSON-RPC message, or the error that explains why not. */
export function parseMessage(text: string): Parsed {
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    return { error: invalidRequest(`JSON nesting deeper than ${MAX_JSON_DEPTH} levels`), id: null };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { error: parseError('body is not valid JSON'), id: null };
  }
  // Which of two same-named members counts is not JSON's to say (RFC 8259 4): refused, so no
  // parser on the way, first-wins or last-wins, reads another message than the one served.
  const repeated = duplicateName(text, body);
  if (repeated !== undefined)
    return {
      error: parseError(`an object names ${quoted(repeated)} twice; names must be unique (RFC 7493 2.3)`),
      id: null,
    };
  const inexact = exactIds(text, body);
  if (inexact) return { error: inexact, id: null };
  // Refused as it stands; the binding may still serve it to a 2025-03-26 client (src/http/transport/batch.ts).
  if (Array.isArray(body)) return { ...toMessage(body), batch: body } as Parsed;
  return toMessage(body);
}

/** Classifies a parsed value: a request, a notification, or -32600 (echoing the id when it is readable). */
function toMessage(body: unknown): Parsed {
  const reject = (why: string) => ({
    error: invalidRequest(why),
    id: isObject(body) && isRequestId(body.id) ? body.id : null,
  });
  if (Array.isArray(body)) return reject('batches are not supported; send one message per POST');
  if (!isObject(body)) return reject('body must be a JSON-RPC object');
  if (body.jsonrpc !== '2.0') return reject('"jsonrpc" must be "2.0"');
  if ('result' in body || 'error' in body) return reject('clients must not send JSON-RPC responses');
  if (typeof body.method !== 'string') return reject('"method" must be a string');
  if (body.params !== undefined && !isObject(body.params)) return reject('"params" must be an object');
  // spec 2026-07-28 basic/index, Requests: the ID is a string or integer and MUST NOT be null
  if ('id' in body && !isRequestId(body.id)) return reject('"id" must be a string or an integer');
  // Checked above, field by field: the one place a value from the wire becomes a typed message.
  return { message: body as unknown as JSONRPCMessage };
}

/** A name from the wire as an answer quotes it: JSON-escaped, and cut to 64 characters. */
const quoted = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

/** True when brackets outside strings nest deeper than `limit`; linear, no recursion. */
function nestingExceeds(text: string, limit: number): boolean {
  // Fast path: nesting cannot exceed the number of opening brackets, counted natively (indexOf).
  // Counted under callgrind in Node 22: a 219-character tools/call body, 1,150 instructions against
  // the loop's 7,550 (about 1% of a request's 500,000); a 1 MiB body, 0.4 million against 37 million.
  if (countUpTo(text, '{', limit) + countUpTo(text, '[', limit) <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Occurrences of `char` in `text`, counting no further than `limit + 1`. */
function countUpTo(text: string, char: string, limit: number): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1 && count <= limit; i = text.indexOf(char, i + 1)) count++;
  return count;
}
