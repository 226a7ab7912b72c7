/**
 * What a method of the protocol core receives and gives back: ONE request, validated, carrying
 * everything the transport lends it, and a reply. The transport (the HTTP binding's
 * `serveMcp`, a task's Durable Object) makes the request; the core never builds one. A leaf
 * module (it imports types only), so the core reads in one direction.
 */
import type { McpError } from './errors.js';
import type { RawJson } from './json.js';
import type { RequestMeta } from './meta.js';
import type { TraceContext } from './traceContext.js';
import type { Caller } from './caller.js';
import type { HeaderParam } from './tools.js';
import type { CachePolicy, JSONRPCNotification, JSONRPCRequest } from './types.js';
import type { WorkerEnv } from './env.js';

export type { Caller } from './caller.js';

/** One request as a method serves it. */
export interface McpRequest {
  /** The JSON-RPC request: id, method, params. */
  readonly message: JSONRPCRequest;
  /** Its validated `_meta` (modern), or what the legacy rules make of it. */
  readonly meta: RequestMeta;
  /** The authenticated caller; undefined when authorization is off. Sealed state is bound to it, results default to private. */
  readonly caller: Caller | undefined;
  /** The key the caller is counted by (its principal, else its client address), for per-caller limits. */
  readonly callerKey?: string;
  /** Aborts when the client goes away, or when the server gives up on the request (`abort`). */
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
  /**
   * Sends a request-scoped notification (progress, log) on this request's response stream; false
   * when the transport dropped it because the client has fallen too far behind (HTTP:
   * `MAX_UNREAD_BYTES` unread), so a long stream can end and let the client resume.
   */
  notify(notification: JSONRPCNotification): boolean | undefined;
  readonly env: WorkerEnv;
  /** The key `requestState` is sealed with. */
  readonly secret: string;
  /** True when this deployment serves legacy clients (LEGACY_CLIENTS): their versions are then listed as supported. */
  readonly servesLegacy?: boolean;
  /** W3C trace context of the request, validated, passed on to the handler's outbound fetches. */
  readonly trace?: TraceContext;
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
  /** The result that ends the subscription gracefully when the server closes it, serialized (`./resultJson.ts`). */
  closing: RawJson;
  /**
   * Starts forwarding notifications (task status, changes) into the open stream; returns how to
   * stop. `end` ends the subscription gracefully (`teardown`, then `closing`; called again, it
   * does nothing), for a source that is gone (a hub that restarted) or a caller that may no
   * longer listen: the client reopens it.
   */
  attach?(send: (notification: JSONRPCNotification) => void, end: () => void): () => void;
}

/**
 * The outcome of one request, a reply of one of three kinds: a result (`cache` set only on a
 * cacheable one), an error, or a listen stream. `Reply<RawJson>` is a reply as the core sends it
 * to the transport, its result serialized for the client's era (`./resultJson.ts`).
 */
export type Reply<Result = object | RawJson> = ResultReply<Result> | ErrorReply | ListenReply;
export type ResultReply<Result = object | RawJson> = {
  result: Result;
  cache?: CachePolicy;
  error?: undefined;
  listen?: undefined;
};
export type ErrorReply = { error: McpError; result?: undefined; listen?: undefined };
type ListenReply = { listen: Listen; result?: undefined; error?: undefined };

/** Serves one method: a request in, a reply out (at once, or later). */
export type Method = (request: McpRequest) => Reply | Promise<Reply>;

/** A request admitted: the method that serves it for its era, and the item it names. */
export interface Admission<Item = unknown> {
  /** Serves the request with the item admitted for it. */
  readonly serve: (request: McpRequest, item: Item) => Reply | Promise<Reply>;
  /** The tool, prompt or resource the request names; undefined for the methods that name none. */
  readonly item: Item;
  /** The `Mcp-Param-*` headers a `tools/call` must carry (spec 2026-07-28 streamable-http, x-mcp-header): the transport compares them. */
  readonly headerParams: readonly HeaderParam[] | undefined;
}

/**
 * A method whose request names an item: `find` admits the item (or refuses the request),
 * `serve` serves it. The two halves of one method, in its file under `./methods/`.
 */
export interface ItemMethod<Item> {
  /** The item `message` names, visible to `caller` and with its scopes granted; or the refusal the client gets. */
  find(message: JSONRPCRequest, meta: RequestMeta, caller: Caller | undefined): Item | McpError;
  serve(request: McpRequest, item: Item): Reply | Promise<Reply>;
  /** What the transport must compare of the item (a tool's `Mcp-Param-*` headers). */
  headerParams?(item: Item): readonly HeaderParam[];
}

/** What a method table holds: a method, or the two halves of one that names an item. */
// biome-ignore lint/suspicious/noExplicitAny: each item method admits its own kind of item
export type Served = Method | ItemMethod<any>;
