import {
  type Admission,
  type Caller,
  type CompiledServer,
  internalError,
  type JSONRPCNotification,
  type JSONRPCRequest,
  McpError,
  type McpRequest,
  type RawJson,
  type Reply,
  type RequestMeta,
  type WorkerEnv,
} from '../../mcp/internal.js';
import type { AdmittedContext, AdmittedMessage, HttpContext } from '../context.js';
import { FirstAnswer } from '../transport/firstAnswer.js';
import { openListenStream, takeListenSlot, type ListenSlot } from '../transport/listen.js';
import { callerKey } from '../rateLimit.js';
import { notificationJson, replyJson, resultResponse } from '../transport/responses.js';
import { EventStream } from '../transport/stream.js';
import { callerTrace } from '../observability/trace.js';

/** While a request's answer streams, a comment this often notices a client that left. */
const STREAM_HEARTBEAT_MS = 1_000;

/**
 * The MCP endpoint, `POST /mcp`, once the steps before it have admitted the message: the
 * protocol core serves it. The answer is plain JSON, unless the handler emits a notification
 * first (progress, log): then it becomes an SSE stream of those notifications followed by
 * the result (spec 2026-07-28 streamable-http, Sending Messages). Closing that stream aborts
 * the handler (spec: Cancellation). A notification gets 202 and no body. Each request stands
 * alone: `Mcp-Session-Id` and `Last-Event-ID` are ignored, nothing is stored.
 */
export function serveMcp(context: AdmittedContext): Promise<Response> | Response {
  const { received } = context;
  if (received.meta === undefined) return new Response(null, { status: 202 }); // a notification
  const { message } = received;
  // A listen stream's place is taken before the core serves the request: a refused listen
  // costs nothing, not even a look at the tasks it names.
  let slot: ListenSlot | undefined;
  if (message.method === 'subscriptions/listen') {
    const taken = takeListenSlot(callerKey(context), context.settings.listenMaxStreams);
    if (taken instanceof McpError) return context.fail(message.id, taken);
    slot = taken;
  }
  const call = new HttpCall(context, received);
  const reply = run(context.server, call, received.admission);
  // A reply the core had at once (discover, a list, a refusal) is answered without a promise.
  if (!(reply instanceof Promise)) return call.answer(reply, slot);
  // Else the stream a notification opens meanwhile and the reply race to answer (`FirstAnswer`).
  const race = call.race();
  void reply.then((done) => race.replyReady(call.answer(done, slot)));
  return race.response;
}

/**
 * The HTTP side of one request the core serves: the request as the core receives it
 * (`McpRequest`), and its answer. One per request, its methods on the prototype (the core calls
 * them on the object, never taken apart), and what most methods never use (the abort signal,
 * the trace context) made on first use.
 */
class HttpCall implements McpRequest {
  readonly message: JSONRPCRequest;
  readonly meta: RequestMeta;
  readonly env: WorkerEnv;
  readonly secret: string;
  readonly servesLegacy: boolean;
  readonly caller: Caller | undefined;
  /** The SSE stream, once a notification turned the answer into one. */
  private stream: EventStream | undefined = undefined;
  /** While the core works asynchronously: the race the stream may win (`race`). */
  private first: FirstAnswer | undefined = undefined;
  /** The core has replied: nothing more is sent (spec 2026-07-28 streamable-http). */
  private replied = false;
  private controller: AbortController | undefined = undefined;
  private clientGone: AbortSignal | undefined = undefined;

  constructor(
    private readonly context: HttpContext,
    { message, meta }: Extract<AdmittedMessage, { meta: RequestMeta }>,
  ) {
    const { settings } = context;
    this.message = message;
    this.meta = meta;
    this.env = context.env;
    this.secret = settings.stateSecret;
    this.servesLegacy = settings.legacyClients;
    this.caller = context.caller;
  }

  get callerKey(): string {
    return callerKey(this.context);
  }

  get signal(): AbortSignal {
    const controller = (this.controller ??= new AbortController());
    if (!this.clientGone) {
      this.clientGone = this.context.request.signal; // the client went away (enable_request_signal)
      if (this.clientGone.aborted) this.cancel();
      else this.clientGone.addEventListener('abort', this.cancel, { once: true });
    }
    return controller.signal;
  }

  // W3C trace context: from _meta, else from the HTTP headers (spec 2026-07-28 basic/index,
  // _meta), valid or none. Read on use: only handlers that fetch upstream need it.
  get trace(): McpRequest['trace'] {
    return callerTrace(this.meta, this.context.request.headers);
  }

  abort(reason: unknown): void {
    (this.controller ??= new AbortController()).abort(reason);
  }

  /** Closing the stream aborts the handler (spec: Cancellation); an arrow, as it is an event listener. */
  private readonly cancel = () => this.abort(new DOMException('the client closed the stream', 'AbortError'));

  notify(notification: JSONRPCNotification): boolean | undefined {
    if (this.replied) return;
    if (!this.stream) {
      this.stream = new EventStream(STREAM_HEARTBEAT_MS, this.cancel);
      const response = this.context.answerWithStream(this.stream);
      this.first?.streamOpened(response);
    }
    // A client this far behind is sent no more progress or log until it reads (`MAX_UNREAD_BYTES`,
    // ../stream.ts): each echoes its progress token, so they would otherwise pile up in memory.
    // The caller hears of it (an events stream ends, and its client resumes from its cursor).
    if (this.stream.behind) return false;
    this.stream.send(notificationJson(notification));
  }

  /** The core went asynchronous: from now on a notification that opens the stream answers at once. */
  race(): FirstAnswer {
    return (this.first = new FirstAnswer(this.stream?.response));
  }

  /**
   * The HTTP answer to the core's reply: plain JSON, a listen stream in the place `slot` holds,
   * or, when a notification turned the answer into an SSE stream, that stream, with the reply as
   * its last event. A place not used for a stream is given back.
   */
  answer(reply: Reply<RawJson>, slot: ListenSlot | undefined): Response {
    const { context, stream } = this;
    const { id } = this.message;
    this.replied = true;
    this.clientGone?.removeEventListener('abort', this.cancel); // the client's leaving no longer matters
    if (reply.listen && slot)
      return context.answerWithStream(
        openListenStream(id, reply.listen, context.settings.listenMaxMs, slot, context.caller?.expiresAt),
      );
    slot?.();
    // Only subscriptions/listen has a place to stream in; a listen reply to anything else is a bug of the core.
    if (reply.listen) return context.fail(id, internalError());
    // Its status and headers (a challenge, Retry-After) are `errorAnswer`'s, as for every error.
    if (reply.error) return context.fail(id, reply.error, stream);
    if (!stream) return resultResponse(id, reply, context.settings.credentialHeader);
    stream.close(replyJson(id, reply));
    return stream.response;
  }
}

/**
 * The core serves what it admitted (`readMessage`), checking none of it again. It never throws by
 * design; if it does, the client gets -32603 and no internals.
 */
function run(
  server: CompiledServer,
  request: McpRequest,
  admission: Admission,
): Reply<RawJson> | Promise<Reply<RawJson>> {
  try {
    const reply = server.serve(request, admission);
    return reply instanceof Promise ? reply.catch((error: unknown) => crashed(request.message.method, error)) : reply;
  } catch (error) {
    return crashed(request.message.method, error);
  }
}

function crashed(method: string, error: unknown): Reply<RawJson> {
  console.error(`unhandled error in ${method}`, error);
  return { error: internalError() };
}
