/**
 * Everything one HTTP request carries through the pipeline, in one typed object (in the
 * spirit of Hono's `Context`). It is also the "request" itty-router routes: itty reads
 * `method` and `url` and writes `params`, `query` and `route`, so every step receives this
 * object and nothing else.
 *
 * What a step learns that a later one needs is written once, by that step: who is calling
 * (`verifyToken`), the message it admitted (`readMessage`, a record the steps after it receive
 * typed). How the request was answered (`error`, `streamEnded`) is written by the two methods
 * that answer, `fail` and `answerWithStream`; the request log and the trace span read it once
 * the answer has ended.
 */
import type {
  Admission,
  Caller,
  CompiledServer,
  JSONRPCNotification,
  JSONRPCRequest,
  McpError,
  RequestId,
  RequestMeta,
  WorkerEnv,
} from '../mcp/internal.js';
import { metadataUrl, scopesToAsk } from './auth/challenges.js';
import { readJsonBody } from './transport/body.js';
import { type ChallengeContext, errorAnswer } from './transport/errorAnswer.js';
import { errorResponse, replyJson } from './transport/responses.js';
import type { Settings } from './settings/settings.js';
import type { EventStream, StreamEnd } from './transport/stream.js';
import type { TraceSpan } from './observability/trace.js';
import { originOf } from './transport/url.js';

/** What the request log and the trace span say about a request (`requestAttributes.ts`). */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** A step of the pipeline: a `Response` ends the chain (as in itty-router), `undefined` goes on. */
export type Step = (context: HttpContext) => Response | undefined | Promise<Response | undefined>;

/** A `finally` step: sees the answer, may replace it (itty-router keeps the old one on `undefined`). */
export type FinallyStep = (response: Response, context: HttpContext) => Response | undefined;

/**
 * The one JSON-RPC message of `POST /mcp` as `readMessage` admitted it, never changed after: a
 * request, with its validated `_meta` and the core's `Admission` of it (`CompiledServer.admit`:
 * its version, its method, the item it names, visible to the caller and with its scopes granted);
 * or a notification, which has no `_meta` to read and gets no answer (`meta` tells the two apart).
 */
export type AdmittedMessage =
  | { readonly message: JSONRPCRequest; readonly meta: RequestMeta; readonly admission: Admission }
  | { readonly message: JSONRPCNotification; readonly meta: undefined; readonly admission: undefined };

/** What `readMessage` received: the message it admitted, or what it had read of one it refused (the log still names it). */
type Received =
  | AdmittedMessage
  | { readonly message: JSONRPCRequest; readonly meta: RequestMeta | undefined; readonly admission: undefined };

/**
 * The context of the steps after `readMessage`. Its refusal ends the chain (itty's rule), so a
 * step after it only ever runs for an admitted message: it reads `received` without checking it.
 */
export interface AdmittedContext extends HttpContext {
  readonly received: AdmittedMessage;
}

/** A step after `readMessage`, which receives the admitted message typed. */
type AdmittedStep = (context: AdmittedContext) => Response | undefined | Promise<Response | undefined>;

/**
 * The steps that follow `readMessage` in a list, typed as any step: a list puts them after it,
 * which is what makes their `AdmittedContext` true (as Hono's typed `Variables` are true because
 * of the middleware that sets them). Nothing is wrapped: the steps run as they are.
 */
export const admittedSteps = (...steps: AdmittedStep[]): Step[] => steps as Step[];

const NONE: Readonly<Record<string, never>> = Object.freeze({});

export class HttpContext {
  /** Read by itty-router to route the request. */
  readonly method: string;
  readonly url: string;
  /** Written by itty-router (these shared empty values only hold the places, so nothing is allocated). */
  params: Record<string, string> = NONE;
  query: Record<string, string | string[] | undefined> = NONE;
  route = '';

  /** When the request arrived, for the duration in the log (read only when logs are on). */
  readonly startedAt: number;
  /** The request's `Origin`, once the origin policy has allowed it: CORS headers go back to it (`steps/cors.ts`). */
  allowedOrigin: string | undefined = undefined;
  /** This request's trace span, when the runtime traces (`steps/requestSpan.ts`). */
  span: TraceSpan | undefined = undefined;
  /** The authenticated caller, when authorization is on (`verifyToken`): the core's `Caller`, handed on as it is. */
  caller: Caller | undefined = undefined;
  /** How many messages a legacy batch carried (`answerBatch`); its members are not logged one by one. */
  batchSize: number | undefined = undefined;
  /** The JSON-RPC message, once `readMessage` has read it (`AdmittedMessage` for the steps after it). */
  received: Received | undefined = undefined;
  /** The JSON-RPC error the request was answered with, whichever step or handler decided it: written by `fail` only. */
  error: McpError | undefined = undefined;
  /** For a streamed answer: settles when the stream has ended, saying who ended it. Written by `answerWithStream` only. */
  streamEnded: Promise<StreamEnd> | undefined = undefined;
  /** What the request was and how it ended, worked out once for the log and the span (`outcomeOf`). */
  outcome: Attributes | undefined = undefined;

  /** The `MCP-Protocol-Version` header, read once (`protocolVersionHeader`). */
  private versionHeader: string | null | undefined = undefined;
  /** The body's text, read once (`body`). */
  private bodyText: Promise<string | McpError> | undefined = undefined;

  constructor(
    readonly request: Request,
    readonly env: WorkerEnv,
    readonly ctx: ExecutionContext,
    readonly settings: Settings,
    readonly server: CompiledServer,
  ) {
    this.method = request.method;
    this.url = request.url;
    this.startedAt = settings.requestLogs ? performance.now() : 0;
  }

  /** The request's `MCP-Protocol-Version` header (null when absent). */
  get protocolVersionHeader(): string | null {
    if (this.versionHeader === undefined) this.versionHeader = this.request.headers.get('MCP-Protocol-Version');
    return this.versionHeader;
  }

  /** The body as JSON text (415, 413, -32700 as errors, `body.ts`), read once whichever step asks first (`answerBatch`, `readMessage`). */
  body(): Promise<string | McpError> {
    return (this.bodyText ??= readJsonBody(this.request, this.settings.maxBodyBytes));
  }

  /** The context of one message of a batch: the same caller and deployment, its own request. */
  member(request: Request): HttpContext {
    const member = new HttpContext(request, this.env, this.ctx, this.settings, this.server);
    member.caller = this.caller;
    return member;
  }

  /**
   * Runs `then` when the answer has really ended: now for a plain answer, when the stream
   * closes for a streamed one, kept alive with `waitUntil` (a runtime without it, as plain
   * Node, just lets the promise run).
   */
  whenEnded(then: (endedBy?: StreamEnd) => void): void {
    if (!this.streamEnded) {
      then();
      return;
    }
    // Once the stream has ended nobody awaits this: a failure is logged, as `router.ts` logs a finally step's.
    const ended = this.streamEnded
      .then(then)
      .catch((error: unknown) => console.error('a step after the stream ended failed', error));
    if (typeof this.ctx?.waitUntil === 'function') this.ctx.waitUntil(ended);
  }

  /**
   * Answers with a JSON-RPC error, and remembers it for the log and the trace: as JSON, with
   * the status and headers `errorAnswer` gives it (for a legacy client too: it reads JSON-RPC
   * errors from a 200 answer), or, when the answer is already a `stream`, as its last event.
   * Every step, auth mode and core reply answers its errors here.
   */
  fail(id: RequestId | null, error: McpError, stream?: EventStream): Response {
    this.error = error;
    if (stream) {
      stream.close(replyJson(id, { error }));
      return stream.response;
    }
    const { status, headers } = errorAnswer(error, this.received?.meta?.era === 'legacy', this);
    return errorResponse(id, error, status, headers);
  }

  /** What a challenge says of this deployment (`errorAnswer` asks only for an answer that carries one). */
  challenge(): ChallengeContext {
    const metadata = metadataUrl(this.settings, originOf(this.url));
    return { metadata, scopesToAsk: scopesToAsk(metadata, this.settings) };
  }

  /** Answers with `stream`: the log and the trace wait for its end. */
  answerWithStream(stream: EventStream): Response {
    this.streamEnded = stream.ended;
    return stream.response;
  }
}
