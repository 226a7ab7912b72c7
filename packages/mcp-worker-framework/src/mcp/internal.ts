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
  bindingMissing,
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
  taskNotFound,
  tokenInvalid,
  tokenRequired,
  tooManyStreams,
  unauthorized,
  unsupportedMediaType,
  unsupportedVersion,
} from './errors.js';
export { type ScopeHierarchy, scopeTokens } from './scopes.js';
export { isObject, RawJson } from './json.js';
export { binding, type DurableObjects, isDurableObjects, isRateLimit, type Remote } from './binding.js';
export type { Caller } from './caller.js';
export type { WorkerEnv } from './env.js';
export type { CompiledServer } from './createServer.js';
export type { AnyTool, CallerRules, ResourceDefinition } from './define.js';
export {
  declaresExtension,
  type Extension,
  OtherResult,
  type RoundInput,
  type ServerAtLoad,
  type ToolField,
} from './extension.js';
export type { DurableObjectClass, ExtensionObject, WorkerExtension } from './workerExtension.js';
export { fnv1a } from './fnv1a.js';
export { sha256Hex } from './sha256Hex.js';
export { bytesOver } from './bytesOver.js';
export { checkInputRequests, type InputRequest, InputRequired, readInputResponses } from './input.js';
export { parseMessage } from './jsonrpc.js';
export { noLegacyHandshake, readLegacyMeta } from './legacy.js';
export { hasModernClaim, MetaKey, readRequestMeta, type RequestMeta } from './meta.js';
export { list } from './methods/list.js';
export { streamIdTooLong } from './methods/listen.js';
export type {
  Admission,
  ErrorReply,
  Listen,
  McpRequest,
  Method,
  Reply,
  ResultReply,
} from './request.js';
export { derivedKey, toBase64Url } from './secretKeys.js';
export type { HeaderParam } from './tools.js';
export type { ArgumentsOf, InputSchema, OutputSchema, StructuredOf } from './toolSchema.js';
export { readTraceContext, type TraceContext } from './traceContext.js';
export type {
  CachePolicy,
  CallToolResult,
  JsonObject,
  JSONRPCNotification,
  JSONRPCRequest,
  JsonValue,
  RequestId,
} from './types.js';
export { isRestricted, namedResource, privately, refusalFor, visibleTo } from './visibility.js';
export type { JSONSchema } from './types.js';
