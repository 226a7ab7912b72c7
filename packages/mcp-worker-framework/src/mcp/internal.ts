/**
 * The core's one internal entry: what the template's own layers (src/http, src/tasks, src/apps,
 * src/signin, src/skills, src/auth, src/createWorker.ts) use of the protocol core beyond its public
 * API (`./index.ts`): errors as values, the request and its metadata, the
 * extension seam, the compiled tool. Outside `src/mcp/`, a file imports the core through
 * `./index.ts` or this file, never a module of the core directly (test/unit/import-graph.test.ts);
 * a server author's code (src/server.ts, src/tools/) uses `./index.ts` alone. Its order (the
 * modules most layers use first) is the order of the core in the bundle: kept, it keeps the Worker small.
 */
export {
  authorizationServerUnreachable,
  bodyTooLarge,
  ErrorCode,
  headerMismatch,
  hostNotAllowed,
  internalError,
  invalidParams,
  invalidRequest,
  McpError,
  misconfigured,
  missingExtension,
  originNotAllowed,
  parseError,
  rateLimited,
  scopeRequired,
  taskNotFound,
  tokenInvalid,
  tokenRequired,
  tooManyStreams,
  unauthorized,
  unsupportedMediaType,
  unsupportedVersion,
} from './errors';
export { type ScopeHierarchy, scopeTokens } from './scopes';
export { isObject, RawJson } from './json';
export type { Caller } from './caller';
export type { FrameworkEnv, WorkerEnv } from './env';
export type { CompiledServer } from './createServer';
export type { AnyTool, CallerRules, ResourceDefinition } from './define';
export { declaresExtension, type Extension, OtherResult, type RoundInput, type ServerAtLoad } from './extension';
export { fnv1a } from './fnv1a';
export { checkInputRequests, type InputRequest, InputRequired, readInputResponses } from './input';
export { parseMessage } from './jsonrpc';
export { noLegacyHandshake, readLegacyMeta } from './legacy';
export { hasModernClaim, MetaKey, readRequestMeta, type RequestMeta } from './meta';
export { list } from './methods/list';
export { MAX_STREAM_ID_CHARS, streamIdTooLong } from './methods/listen';
export type {
  Admission,
  ErrorReply,
  Listen,
  McpRequest,
  Method,
  Reply,
  ResultReply,
} from './request';
export { derivedKey, toBase64Url } from './secretKeys';
export type { CompiledTool, HeaderParam } from './tools';
export type { ArgumentsOf, InputSchema, OutputSchema, StructuredOf } from './toolSchema';
export { readTraceContext, type TraceContext } from './traceContext';
export type {
  CachePolicy,
  CallToolResult,
  JsonObject,
  JSONRPCNotification,
  JSONRPCRequest,
  JsonValue,
  RequestId,
} from './types';
export { isRestricted, namedResource, privately, refusalFor, visibleTo } from './visibility';
export type { JSONSchema, ServerCapabilities } from './types';
