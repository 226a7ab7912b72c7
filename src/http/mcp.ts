/**
 * `POST /mcp`: the Streamable HTTP binding (spec 2026-07-28 basic/transports/streamable-http).
 * Body → one JSON-RPC message → `_meta` → headers agree with body → the protocol core.
 * Each request stands alone: `Mcp-Session-Id` and `Last-Event-ID` are ignored, nothing is stored.
 */
import { internalError, McpError, unsupportedVersion } from '../mcp/errors';
import { parseMessage } from '../mcp/jsonrpc';
import { readRequestMeta, type RequestMeta } from '../mcp/meta';
import type { CallContext, McpServer, Reply } from '../mcp/server';
import type { JSONRPCRequest } from '../mcp/types';
import { readJsonBody } from './body';
import { checkHeaders } from './headers';
import { listenResponse } from './listen';
import { errorResponse, notificationJson, replyJson, replyResponse, SSE_HEADERS, sseEvent } from './respond';
import { settingsFor } from './settings';

/** 202 Accepted with no body: the answer to every notification (spec: never a result for one). */
const accepted = () => new Response(null, { status: 202 });

export function mcpEndpoint(server: McpServer) {
  return async function handleMcp(request: Request, env: Env): Promise<Response> {
    const body = await readJsonBody(request, settingsFor(env).maxBodyBytes);
    if (body instanceof McpError) return errorResponse(null, body);
    const parsed = parseMessage(body);
    if (parsed.error) return errorResponse(parsed.id, parsed.error);
    const message = parsed.message;
    if (!('id' in message)) return accepted();

    const meta = readRequestMeta(message.params);
    if (meta instanceof McpError && message.method === 'initialize') return errorResponse(message.id, legacyHandshake(server, message.params));
    if (meta instanceof McpError) return errorResponse(message.id, meta);
    const mismatch = checkHeaders(request.headers, message, meta, server);
    if (mismatch) return errorResponse(message.id, mismatch);
    const settings = settingsFor(env);
    return respond(server, message, meta, request.signal, env, settings.stateSecret, settings.listenMaxMs);
  };
}

/**
 * A legacy client opens with `initialize` (and no modern `_meta`) and has no way to move forward, so the refusal
 * names the versions this server speaks (spec 2026-07-28 basic/versioning, Backward Compatibility).
 */
function legacyHandshake(server: McpServer, params: JSONRPCRequest['params']): McpError {
  const requested = typeof params?.protocolVersion === 'string' ? params.protocolVersion : 'unknown';
  const supported = server.supportedVersions;
  return unsupportedVersion(supported, requested, `Unsupported protocol version ${requested}: this server speaks ${supported.join(', ')} and has no initialize handshake`);
}

/**
 * Runs the request and answers with plain JSON, unless the handler emits a notification
 * first (progress, log): then the answer becomes an SSE stream of those notifications
 * followed by the result. Closing that stream aborts the handler (spec: cancellation).
 */
async function respond(
  server: McpServer,
  request: JSONRPCRequest,
  meta: RequestMeta,
  clientGone: AbortSignal,
  env: Env,
  secret: string,
  listenMaxMs: number,
): Promise<Response> {
  const abort = new AbortController();
  const onGone = () => abort.abort(clientGone.reason);
  clientGone.addEventListener('abort', onGone, { once: true });
  const encoder = new TextEncoder();
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  let finished = false;
  let openStream!: (response: Response) => void;
  const streamOpened = new Promise<Response>((resolve) => (openStream = resolve));

  const call: CallContext = {
    signal: abort.signal,
    env,
    secret,
    notify(notification) {
      // spec: nothing more is sent once the request is answered or cancelled
      if (finished || abort.signal.aborted) return;
      if (!stream) {
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => void (stream = controller),
          cancel: () => abort.abort(new DOMException('client closed the stream', 'AbortError')),
        });
        openStream(new Response(body, { headers: SSE_HEADERS }));
      }
      stream?.enqueue(encoder.encode(sseEvent(notificationJson(notification))));
    },
  };

  const replied = run(server, request, meta, call).then((reply) => {
    finished = true;
    clientGone.removeEventListener('abort', onGone);
    if (reply.listen) return listenResponse(request.id, reply.listen, listenMaxMs, clientGone);
    if (!stream) return replyResponse(request.id, reply);
    if (!abort.signal.aborted) {
      stream.enqueue(encoder.encode(sseEvent(replyJson(request.id, reply))));
      stream.close();
    }
    return streamOpened;
  });
  return Promise.race([streamOpened, replied]);
}

/** The core never throws by design; if it does, the client gets -32603 and no internals. */
async function run(server: McpServer, request: JSONRPCRequest, meta: RequestMeta, call: CallContext): Promise<Reply> {
  try {
    return await server.handle(request, meta, call);
  } catch (error) {
    console.error(`unhandled error in ${request.method}`, error);
    return { error: internalError() };
  }
}
