/**
 * Errors are values. Every JSON-RPC error this server can send is made here, by name; none
 * knows an HTTP status. A refusal that means more than its code (an unauthorized caller, a
 * limit reached) says so by its `kind`, and the transport maps code and kind to its own terms in
 * one place (the HTTP edge: src/http/transport/errorAnswer.ts).
 */

/** JSON-RPC 2.0 codes and the codes MCP reserves (spec 2026-07-28 basic/index, Error Codes). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /** Legacy (2025-11-25 and earlier) only: resource not found; 2026-07-28 uses -32602. */
  ResourceNotFound: -32002,
  /**
   * This server's own (outside the range JSON-RPC reserves, as spec 2026-07-28 basic/index asks
   * of new codes): the authorization server's keys could not be fetched, so the access token can
   * be neither accepted nor refused. Sent with 503 and Retry-After (docs/reliability.md).
   */
  AuthorizationServerUnreachable: -31503,
} as const;
/**
 * A code of this table, or one an extension defines in its own module, in the server range
 * (spec 2026-07-28 basic/index): MCP Events' -32011 to -32015 (src/events/eventErrors.ts).
 */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | ExtensionErrorCode;
type ExtensionErrorCode = -32011 | -32012 | -32013 | -32014 | -32015;

/**
 * What a refusal means beyond its JSON-RPC code, for the transport to answer in its terms
 * (spec 2026-07-28 basic/authorization; RFC 6750 for the token refusals): no credential, a
 * credential refused, a grant that stopped working after it was verified, a caller refused,
 * one that lacks scopes (`data.requiredScopes` names them), a limit reached, a body too large or
 * not JSON.
 */
type ErrorKind =
  | 'tokenRequired'
  | 'tokenInvalid'
  | 'unauthorized'
  | 'forbidden'
  | 'insufficientScope'
  | 'rateLimited'
  | 'tooLarge'
  | 'unsupportedMediaType';

/**
 * A JSON-RPC error on its way to the client: `code`, `message` and `data` are sent; `kind` and
 * `retryAfterSeconds` (when to come back, for a limit or an outage) are for the transport. A
 * plain value, not an `Error`: a protocol error needs no stack trace, and capturing one costs
 * more than the rest of a rejection (BENCHMARKS.md). Handlers may still `throw` one; the core
 * answers it as it is.
 */
export class McpError {
  readonly name = 'McpError';
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
    readonly data?: unknown,
    readonly kind?: ErrorKind,
    readonly retryAfterSeconds?: number,
  ) {}
}

export const parseError = (why: string) => new McpError(ErrorCode.ParseError, `Parse error: ${why}`);
export const invalidRequest = (why: string) => new McpError(ErrorCode.InvalidRequest, `Invalid request: ${why}`);
export const invalidParams = (why: string, data?: unknown) =>
  new McpError(ErrorCode.InvalidParams, `Invalid params: ${why}`, data);
export const methodNotFound = (method: string) => new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
export const resourceNotFoundLegacy = (uri: string) =>
  new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
/** A legacy session cannot be asked anything by a stateless server: it needs 2026-07-28. */
export const cannotAskLegacyClient = (method: string) =>
  new McpError(
    ErrorCode.InvalidRequest,
    `${method} needs input from the client (elicitation, sampling or roots), which this stateless server can only ask for with protocol 2026-07-28; connect with a client that speaks it`,
  );
export const internalError = () => new McpError(ErrorCode.InternalError, 'Internal error');
/** A setting of the deployment cannot be read: nothing is served until it is fixed (docs/production.md, Settings). */
export const misconfigured = (setting: string, why: string) =>
  new McpError(ErrorCode.InternalError, `Server misconfigured: the setting ${setting} ${why}`, { setting });
/** A binding the deployment lacks (a Durable Object a feature needs): not the client's fault, and not secret. */
export const bindingMissing = (binding: string, why: string) =>
  new McpError(ErrorCode.InternalError, `Server misconfigured: the binding ${binding} ${why}`, { binding });
export const headerMismatch = (why: string) => new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${why}`);
/** -32021 naming the missing features as capabilities: `elicitation.url` becomes `{ elicitation: { url: {} } }`. */
export const missingCapability = (features: readonly string[]) => {
  const required: Record<string, Record<string, object>> = {};
  for (const feature of features) {
    const [name = feature, sub] = feature.split('.', 2);
    required[name] ??= {};
    if (sub !== undefined) required[name][sub] = {};
  }
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${features.join(', ')}`,
    {
      requiredCapabilities: required,
    },
  );
};
/** A request the server can only serve to a client that declared an extension (spec extensions/tasks, Capability Negotiation). */
export const missingExtension = (id: string) =>
  new McpError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: extension ${id}`, {
    requiredCapabilities: { extensions: { [id]: {} } },
  });
/** An unknown, expired or someone else's task: the same answer for all three, so none is revealed (spec extensions/tasks, Error Handling). */
export const taskNotFound = (taskId: string) =>
  invalidParams('Failed to retrieve task: Task not found or expired', { taskId });
export const unsupportedVersion = (
  supported: readonly string[],
  requested: string,
  why = 'Unsupported protocol version',
) =>
  new McpError(ErrorCode.UnsupportedProtocolVersion, why, {
    supported,
    requested,
  });

/** Refusals decided by the transport alone, before any JSON-RPC message is read. */
export const bodyTooLarge = (limit: number) =>
  new McpError(ErrorCode.InvalidRequest, `Request body exceeds ${limit} bytes`, undefined, 'tooLarge');
export const unsupportedMediaType = () =>
  new McpError(ErrorCode.InvalidRequest, 'Content-Type must be application/json', undefined, 'unsupportedMediaType');
/** Authorization refusals (spec 2026-07-28 basic/authorization; RFC 6750): the transport's challenge goes with them. */
export const tokenRequired = (why: string) =>
  new McpError(ErrorCode.InvalidRequest, `Unauthorized: ${why}`, undefined, 'tokenRequired');
export const tokenInvalid = () =>
  new McpError(
    ErrorCode.InvalidRequest,
    'Unauthorized: the access token is invalid or expired',
    undefined,
    'tokenInvalid',
  );
/** A handler found the caller's grant gone after its token was verified (revoked upstream, docs/sign-in.md): the client signs in again. */
export const unauthorized = (why: string) =>
  new McpError(ErrorCode.InvalidRequest, `Unauthorized: ${why}`, undefined, 'unauthorized');
/** The token is unverifiable for now, not invalid: the client keeps it and retries in `retryAfterSeconds`. */
export const authorizationServerUnreachable = (
  what = 'its signing keys could not be fetched',
  retryAfterSeconds?: number,
) =>
  new McpError(
    ErrorCode.AuthorizationServerUnreachable,
    `The authorization server is unreachable: ${what}, so the access token can be neither accepted nor refused; retry after the time in Retry-After`,
    undefined,
    undefined,
    retryAfterSeconds,
  );
export const forbidden = (why: string) =>
  new McpError(ErrorCode.InvalidRequest, `Forbidden: ${why}`, undefined, 'forbidden');
/**
 * The caller's token lacks scopes (spec 2026-07-28 basic/authorization, insufficient scope).
 * `data.requiredScopes` names them, so the transport can add the step-up challenge (RFC 6750 3.1).
 */
export const scopeRequired = (scopes: readonly string[]) =>
  new McpError(
    ErrorCode.InvalidRequest,
    `Forbidden: this needs the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(', ')}`,
    { requiredScopes: scopes },
    'insufficientScope',
  );
/** A limit reached; without `retryAfterSeconds` the transport says when its limiters' period ends. */
export const rateLimited = () =>
  new McpError(
    ErrorCode.InvalidRequest,
    'Too many requests; retry after the time in Retry-After',
    undefined,
    'rateLimited',
  );
/** Past the isolate's listen streams, or (`perClient`) past one client's share of them; come back in `retryAfterSeconds`. */
export const tooManyStreams = (limit: number, perClient: boolean, retryAfterSeconds: number) =>
  new McpError(
    ErrorCode.InvalidRequest,
    `Too many open subscriptions/listen streams (limit ${limit}${perClient ? ' per client' : ''}); retry later`,
    undefined,
    'rateLimited',
    retryAfterSeconds,
  );
export const hostNotAllowed = (host: string) =>
  new McpError(ErrorCode.InvalidRequest, `Host not allowed: ${host}`, undefined, 'forbidden');
export const originNotAllowed = (origin: string) =>
  new McpError(ErrorCode.InvalidRequest, `Origin not allowed: ${origin}`, undefined, 'forbidden');
