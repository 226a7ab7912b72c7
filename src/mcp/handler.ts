/**
 * What every method handler of the protocol core shares: the context the transport lends a
 * request, and the reply a handler gives back. A leaf module (it imports types only), so the
 * core reads in one direction: `createServer` → `handlers` → `context` → here.
 */
import type { McpError } from './errors';
import type { RequestMeta } from './meta';
import type { RawJson } from './paginate';
import type { CompiledTool } from './tools';
import type { TraceContext } from './traceContext';
import type { CachePolicy, JsonObject, JSONRPCNotification, RequestId } from './types';

/** What the transport lends one request. */
export interface CallContext {
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  env: Env;
  /** Sends a request-scoped notification on this request's response stream. */
  notify(notification: JSONRPCNotification): void;
  /** The key `requestState` is sealed with. */
  secret: string;
  /** True when this deployment serves legacy clients (LEGACY_CLIENTS): their versions are then listed as supported. */
  servesLegacy?: boolean;
  /** The authenticated caller, when there is one; sealed state is bound to it, results default to private. */
  principal?: string;
  /** The scopes the caller's token grants. */
  scopes?: readonly string[];
  /** Who per-caller limits count (the task budget): `principal:<subject>`, else `ip:<client address>`. */
  callerKey?: string;
  /** W3C trace context of the request, passed on to the handler's outbound fetches. */
  trace?: TraceContext;
  /**
   * The tool a `tools/call` names, when the transport has already looked it up (the HTTP edge
   * does, once, to check its policy); the core looks it up itself otherwise.
   */
  tool?: CompiledTool;
  /** Aborts `signal`: the server gave up on the request (a tool's time limit). */
  abort(reason: unknown): void;
}

/** A subscription the transport keeps open: the notification types honoured (spec basic/patterns/subscriptions). */
export interface Listen {
  /** `notifications/subscriptions/acknowledged`: the first message of the stream. */
  acknowledgement: JSONRPCNotification;
  /**
   * When the server ends the subscription: `notifications/cancelled` naming the listen request
   * (spec 2026-07-28 basic/patterns/cancellation: MUST), then `closing`, the result that says the
   * end was graceful (basic/patterns/subscriptions, Graceful Closure).
   */
  teardown: JSONRPCNotification;
  /** The result that ends the subscription gracefully when the server closes it. */
  closing: object;
  /** Starts forwarding notifications (task status) into the open stream; returns how to stop. */
  attach?(send: (notification: JSONRPCNotification) => void): () => void;
}

/** The outcome of one request; `cache` is set only on cacheable results. */
export type ResultReply = { result: object | RawJson; cache?: CachePolicy; error?: undefined; listen?: undefined };
export type ErrorReply = { error: McpError; result?: undefined; listen?: undefined };
export type ListenReply = { listen: Listen; result?: undefined; error?: undefined };
export type Reply = ResultReply | ErrorReply | ListenReply;

/** Serves one method: its params and the request's validated `_meta` in, a reply out. */
export type Handler = (params: JsonObject, meta: RequestMeta, call: CallContext, id: RequestId) => Reply | Promise<Reply>;

/** Wraps a result in `resultType: "complete"`, its caching hints and the server's `_meta` (built once by `createServer`). */
export type CompleteResult = (result: object, policy?: CachePolicy) => ResultReply;
