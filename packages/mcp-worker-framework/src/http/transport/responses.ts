/**
 * JSON-RPC replies as HTTP responses: an error with the status `errorAnswer.ts` gives it,
 * `Cache-Control` from the result's caching hints (spec 2026-07-28 server/utilities/caching).
 */
import type {
  CachePolicy,
  ErrorReply,
  JSONRPCNotification,
  McpError,
  RawJson,
  RequestId,
  ResultReply,
} from '../../mcp/internal.js';

/** Never stored: tool calls, errors, streams. */
export const NO_STORE = 'no-store';

/**
 * `public` or `private` from `cacheScope`; `max-age` = floor(ttlMs / 1000); a TTL under
 * one second means "immediately stale", which HTTP spells `no-cache`. Worked out only when a
 * policy's header set is first built (`resultInit`), so it keeps nothing itself.
 */
export function cacheControl(policy: CachePolicy | undefined): string {
  if (!policy) return NO_STORE;
  const seconds = Math.floor(policy.ttlMs / 1000);
  return seconds > 0 ? `${policy.cacheScope}, max-age=${seconds}` : `${policy.cacheScope}, no-cache`;
}

/** The JSON-RPC response message for a reply, as text: the core serialized its result, it is spliced in as it is. */
export function replyJson(id: RequestId | null, reply: ResultReply<RawJson> | ErrorReply): string {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},`;
  if (reply.error) return `${head}"error":${errorJson(reply.error)}}`;
  return `${head}"result":${reply.result.json}}`;
}

const errorJson = (error: McpError) =>
  JSON.stringify({
    code: error.code,
    message: error.message,
    ...(error.data !== undefined ? { data: error.data } : {}),
  });

/** A result; `vary` names the header the credential arrives in (`Settings.credentialHeader`), which a private one varies on. */
export function resultResponse(id: RequestId | null, reply: ResultReply<RawJson>, vary: string): Response {
  return new Response(replyJson(id, reply), resultInit(reply.cache, vary));
}

/** An error with its status and, when it has any, its own headers (a challenge, Retry-After) beside the shared ones. */
export function errorResponse(
  id: RequestId | null,
  error: McpError,
  status: number,
  headers?: Readonly<Record<string, string>>,
): Response {
  const response = new Response(replyJson(id, { error }), errorInit(status));
  if (headers) for (const name in headers) response.headers.set(name, headers[name]!);
  return response;
}

// The headers of an answer depend only on its caching hints or its status: each set is built
// once, as a `Headers`, and shared. A Response copies the headers it is given, so the shared set
// never changes, and copying a `Headers` costs the runtime less than reading a plain object's
// properties (BENCHMARKS.md, "Where the time goes").
const JSON_NO_STORE = { 'Content-Type': 'application/json', 'Cache-Control': NO_STORE };
let uncachedInit: ResponseInit | undefined;
const initByPolicy = new WeakMap<CachePolicy, ResponseInit>();
/** A private result's header sets, by the header they vary on (one per auth mode a deployment runs). */
const privateInitByVary = new Map<string, WeakMap<CachePolicy, ResponseInit>>();
const initByStatus = new Map<number, ResponseInit>();

function resultInit(policy: CachePolicy | undefined, vary: string): ResponseInit {
  if (!policy) return (uncachedInit ??= { headers: new Headers(JSON_NO_STORE) });
  const isPrivate = policy.cacheScope === 'private';
  let inits = isPrivate ? privateInitByVary.get(vary) : initByPolicy;
  if (inits === undefined) privateInitByVary.set(vary, (inits = new WeakMap()));
  let init = inits.get(policy);
  if (!init) {
    const headers = new Headers({ 'Content-Type': 'application/json', 'Cache-Control': cacheControl(policy) });
    // A private result differs per credential (spec server/utilities/caching): a cache must key on
    // the header the credential arrives in, which the auth mode names (Authorization, Cf-Access-Jwt-Assertion).
    if (isPrivate) headers.set('Vary', vary);
    init = { headers };
    inits.set(policy, init);
  }
  return init;
}

function errorInit(status: number): ResponseInit {
  let init = initByStatus.get(status);
  if (!init) {
    init = { status, headers: new Headers(JSON_NO_STORE) };
    initByStatus.set(status, init);
  }
  return init;
}

/** One SSE event carrying one JSON-RPC message. */
export const sseEvent = (json: string) => `event: message\ndata: ${json}\n\n`;

export const notificationJson = (notification: JSONRPCNotification) => JSON.stringify(notification);

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': NO_STORE,
  // spec 2026-07-28 streamable-http, Receiving Messages: stop proxies from buffering the stream
  'X-Accel-Buffering': 'no',
} as const;
