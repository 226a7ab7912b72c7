/**
 * The codes of MCP Events (spec extensions/events, design sketch, Error Codes): general-purpose,
 * each with a typed `data`, defined by this extension until the base registry takes them. They
 * live here, not in the core's table (src/mcp/errors.ts), so a Worker without events carries none
 * of them. Their HTTP status is the one function's (src/http/transport/errorAnswer.ts), read from what the
 * error is: a code with no `kind` is a 400, the client's request as it stands; a `kind` says more.
 *
 * - -32011 NotFound: 400, as the core answers an unknown tool or resource (-32602). Not 404: on the
 *   MCP endpoint a 404 means an unknown method (-32601, spec 2026-07-28 streamable-http), and a
 *   backward-compatible client may read it as "no Streamable HTTP here".
 * - -32012 Forbidden: 403 (`kind: 'forbidden'`).
 * - -32013 ResourceExhausted: what a retry cannot fix (a principal's subscriptions, the size of
 *   the arguments) is a quota, a 400: a 429 would invite the client to retry the same request. A
 *   rate that a later retry passes (verification requests to a host, streams an isolate holds) is
 *   a 429 with `Retry-After` (`kind: 'rateLimited'`, RFC 6585 4).
 * - -32014 Unsupported, -32015 CallbackEndpointError: 400; a callback that fails is the client's
 *   endpoint, never this server (no 5xx).
 */
import { type ErrorCode, McpError } from '../mcp/internal.js';

export const EventErrorCode = {
  NotFound: -32011,
  Forbidden: -32012,
  ResourceExhausted: -32013,
  Unsupported: -32014,
  CallbackEndpointError: -32015,
} as const satisfies Record<string, ErrorCode>;

/** A JSON-RPC error as plain data, for what crosses RPC and what a `terminated` envelope carries. */
export interface ErrorData {
  code: number;
  message: string;
  data?: unknown;
}

/** -32011: an unknown event type, or no subscription with that key. */
export const notFound = (kind: 'event' | 'subscription', why: string) =>
  new McpError(EventErrorCode.NotFound, `Not found: ${why}`, { kind });
/** -32012: the principal may not do this (webhook subscriptions need one), or its access was revoked. */
export const notPermitted = (why: string) =>
  new McpError(EventErrorCode.Forbidden, `Forbidden: ${why}`, { reason: why }, 'forbidden');
/** -32013 for a quota: a limit that the same request will meet again; `limit` names it, `max` is its ceiling. */
export const quotaReached = (limit: string, max: number, why: string) =>
  new McpError(EventErrorCode.ResourceExhausted, `Resource exhausted: ${why}`, { limit, max });
/** -32013 for a rate: the same request passes in `retryAfterSeconds` (429, Retry-After). */
export const rateReached = (limit: string, max: number, why: string, retryAfterSeconds: number) =>
  new McpError(
    EventErrorCode.ResourceExhausted,
    `Resource exhausted: ${why}`,
    { limit, max },
    'rateLimited',
    retryAfterSeconds,
  );
/** -32014: well-formed, but not served here (a delivery mode an event type does not offer). */
export const unsupported = (feature: string, value: unknown, why: string) =>
  new McpError(EventErrorCode.Unsupported, `Unsupported: ${why}`, { feature, value });
/** -32015: the client's callback failed verification or could not be reached; `reason` is a category only, never its answer. */
export const callbackEndpointError = (reason: string) =>
  new McpError(EventErrorCode.CallbackEndpointError, `Callback endpoint error: ${reason}`, { reason });

/** `terminated`'s error when the principal may no longer see the event type (spec extensions/events, Authorization). */
export const ACCESS_REVOKED: ErrorData = {
  code: EventErrorCode.Forbidden,
  message: 'Forbidden',
  data: { reason: 'access revoked' },
};

/** An error as plain data: what crosses RPC keeps its `kind` and `retryAfterSeconds`, so its status is the same. */
export const errorData = (error: McpError) => ({
  code: error.code,
  message: error.message,
  ...(error.data !== undefined ? { data: error.data } : {}),
  ...(error.kind !== undefined ? { kind: error.kind } : {}),
  ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
});

export type WireError = ReturnType<typeof errorData>;

/** The error plain data describes, made again on this side of RPC. */
export const errorOf = (data: WireError) =>
  new McpError(data.code as ErrorCode, data.message, data.data, data.kind, data.retryAfterSeconds);
