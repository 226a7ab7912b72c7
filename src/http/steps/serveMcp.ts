import { internalError, McpError } from '../../mcp/errors';
import type { CallContext, Reply } from '../../mcp/handler';
import type { McpServer } from '../../mcp/createServer';
import { legacyHttpStatus } from '../../mcp/legacy';
import type { RequestMeta } from '../../mcp/meta';
import type { JSONRPCRequest } from '../../mcp/types';
import type { HttpContext } from '../context';
import { LISTEN_KEEPALIVE_MS, openListenStream } from '../listen';
import { notificationJson, replyJson, replyResponse } from '../responses';
import { EventStream } from '../stream';

/** While a request's answer streams, a comment this often notices a client that left. */
export const STREAM_HEARTBEAT_MS = 1_000;

/**
 * The MCP endpoint, `POST /mcp`, once the steps before it have admitted the message: the
 * protocol core serves it. The answer is plain JSON, unless the handler emits a notification
 * first (progress, log): then it becomes an SSE stream of those notifications followed by
 * the result (spec 2026-07-28 streamable-http, Sending Messages). Closing that stream aborts
 * the handler (spec: Cancellation). A notification gets 202 and no body. Each request stands
 * alone: `Mcp-Session-Id` and `Last-Event-ID` are ignored, nothing is stored.
 */
export function serveMcp(context: HttpContext): Promise<Response> | Response {
  const { message, meta } = context;
  if (!message || !('id' in message)) return new Response(null, { status: 202 });
  // readMessage gives every request its meta; without one the pipeline is misassembled.
  if (!meta) return context.fail(message.id, internalError());
  const { request, settings, principal } = context;
  const id = message.id;
  let abort: AbortController | undefined;
  let clientGone: AbortSignal | undefined;
  let stream: EventStream | undefined;
  const cancel = () => (abort ??= new AbortController()).abort(new DOMException('the client closed the stream', 'AbortError'));
  return new Promise<Response>((answer) => {
    const call: CallContext = {
      // Made on first use: most handlers never look at it.
      get signal() {
        if (!abort) {
          abort = new AbortController();
          clientGone = request.signal; // the client went away (enable_request_signal)
          if (clientGone.aborted) cancel();
          else clientGone.addEventListener('abort', cancel, { once: true });
        }
        return abort.signal;
      },
      env: context.env,
      secret: settings.stateSecret,
      servesLegacy: settings.legacyClients,
      principal: principal?.subject,
      scopes: principal?.scopes,
      // W3C trace context: from _meta, else from the HTTP headers (spec 2026-07-28 basic/index,
      // _meta). Read on first use: only handlers that fetch upstream need it.
      get trace() {
        const traceparent = meta.traceparent ?? request.headers.get('traceparent') ?? undefined;
        const tracestate = meta.tracestate ?? request.headers.get('tracestate') ?? undefined;
        return traceparent ? { traceparent, tracestate } : undefined;
      },
      tool: context.tool,
      abort: (reason) => (abort ??= new AbortController()).abort(reason),
      notify(notification) {
        if (!stream) {
          stream = new EventStream(STREAM_HEARTBEAT_MS, cancel);
          context.streamEnded = stream.ended;
          answer(stream.response);
        }
        stream.send(notificationJson(notification));
      },
    };
    void run(context.server, message, meta, call).then((reply) => {
      if (reply.error) context.error = reply.error;
      clientGone?.removeEventListener('abort', cancel);
      // spec: nothing more is sent once the request is answered or cancelled
      call.notify = () => {};
      if (reply.listen) {
        const listen = openListenStream(id, reply.listen, settings.listenMaxMs, settings.listenMaxStreams);
        if (listen instanceof McpError) {
          const refused = context.fail(id, listen);
          refused.headers.set('Retry-After', String(Math.ceil(LISTEN_KEEPALIVE_MS / 1000)));
          return answer(refused);
        }
        context.streamEnded = listen.ended;
        return answer(listen.response);
      }
      if (!stream) return answer(replyResponse(id, reply, meta.era === 'legacy' && reply.error ? legacyHttpStatus(reply.error) : undefined));
      // The error, if any, goes out as the stream's last event: the log reads it from context.error.
      stream.send(replyJson(id, reply));
      stream.close();
    });
  });
}

/** The core never throws by design; if it does, the client gets -32603 and no internals. */
async function run(server: McpServer, message: JSONRPCRequest, meta: RequestMeta, call: CallContext): Promise<Reply> {
  try {
    return await server.handle(message, meta, call);
  } catch (error) {
    console.error(`unhandled error in ${message.method}`, error);
    return { error: internalError() };
  }
}
