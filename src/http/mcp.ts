/**
 * `POST /mcp`: the Streamable HTTP binding (spec 2026-07-28 basic/transports/streamable-http).
 * Body → one JSON-RPC message → `_meta` → headers agree with body → the protocol core.
 * Each request stands alone: `Mcp-Session-Id` and `Last-Event-ID` are ignored, nothing is stored.
 */
import { internalError, invalidRequest, legacyHttpStatus, McpError, unsupportedVersion } from '../mcp/errors';
import { parseMessage } from '../mcp/jsonrpc';
import { hasModernClaim, legacyMeta, readRequestMeta, type RequestMeta } from '../mcp/meta';
import type { CallContext, McpServer, Reply } from '../mcp/server';
import type { JSONRPCRequest } from '../mcp/types';
import { readJsonBody } from './body';
import { checkHeaders } from './headers';
import { listenResponse } from './listen';
import { errorResponse, notificationJson, replyJson, replyResponse } from './respond';
import { settingsFor, type Settings } from './settings';
import { EventStream } from './stream';

/** While a request's answer streams, a comment this often notices a client that left. */
export const STREAM_HEARTBEAT_MS = 1_000;

/** A legacy request without MCP-Protocol-Version is 2025-03-26 (spec 2026-07-28 streamable-http, Protocol Version Header). */
const LEGACY_DEFAULT_VERSION = '2025-03-26';

/** 202 Accepted with no body: the answer to every notification (spec: never a result for one). */
const accepted = () => new Response(null, { status: 202 });

export function mcpEndpoint(server: McpServer) {
  return async function handleMcp(request: Request, env: Env): Promise<Response> {
    const settings = settingsFor(env);
    const body = await readJsonBody(request, settings.maxBodyBytes);
    if (body instanceof McpError) return errorResponse(null, body);
    const parsed = parseMessage(body);
    if (parsed.error) return errorResponse(parsed.id, parsed.error);
    const message = parsed.message;
    if (!('id' in message)) return accepted();

    // Modern when the body claims a version, or the header names one this server speaks as modern.
    if (!hasModernClaim(message.params) && !server.supportedVersions.includes(request.headers.get('MCP-Protocol-Version') ?? '')) {
      if (settings.legacyClients) return serveLegacy(server, message, request, env, settings);
      if (message.method === 'initialize') return errorResponse(message.id, legacyHandshake(server, message.params));
    }
    const meta = readRequestMeta(message.params);
    if (meta instanceof McpError) return errorResponse(message.id, meta);
    const mismatch = checkHeaders(request.headers, message, meta, server);
    if (mismatch) return errorResponse(message.id, mismatch);
    return respond(server, message, meta, request, env, settings);
  };
}

/**
 * A request without a modern claim, from a client of the `initialize` era (spec 2026-07-28
 * basic/versioning, Backward Compatibility): served statelessly under the legacy rules of
 * spec 2025-11-25. Its version is the MCP-Protocol-Version header (2025-03-26 when absent,
 * as that revision allows); no session is minted or required; JSON-RPC errors come with 200.
 */
function serveLegacy(server: McpServer, message: JSONRPCRequest, request: Request, env: Env, settings: Settings): Promise<Response> | Response {
  const header = request.headers.get('MCP-Protocol-Version');
  const version = header ?? LEGACY_DEFAULT_VERSION;
  if (message.method !== 'initialize' && !server.legacyVersions.includes(version)) {
    // spec 2025-11-25 basic/transports: an invalid or unsupported version header is 400
    return errorResponse(message.id, invalidRequest(`unsupported MCP-Protocol-Version ${version}; supported: ${[...server.legacyVersions, ...server.supportedVersions].join(', ')}`));
  }
  return respond(server, message, legacyMeta(message.params, version), request, env, settings);
}

/**
 * With legacy serving switched off, a legacy client opens with `initialize` and has no way to move forward, so the refusal
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
  http: Request,
  env: Env,
  settings: Settings,
): Promise<Response> {
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
          clientGone = http.signal; // the client went away (enable_request_signal)
          if (clientGone.aborted) cancel();
          else clientGone.addEventListener('abort', cancel, { once: true });
        }
        return abort.signal;
      },
      env,
      secret: settings.stateSecret,
      abort: (reason) => (abort ??= new AbortController()).abort(reason),
      notify(notification) {
        if (!stream) {
          stream = new EventStream(STREAM_HEARTBEAT_MS, cancel);
          answer(stream.response);
        }
        stream.send(notificationJson(notification));
      },
    };
    void run(server, request, meta, call).then((reply) => {
      clientGone?.removeEventListener('abort', cancel);
      // spec: nothing more is sent once the request is answered or cancelled
      call.notify = () => {};
      if (reply.listen) return answer(listenResponse(request.id, reply.listen, settings.listenMaxMs, settings.listenMaxStreams));
      if (!stream) return answer(replyResponse(request.id, reply, meta.era === 'legacy' && reply.error ? legacyHttpStatus(reply.error) : undefined));
      stream.send(replyJson(request.id, reply));
      stream.close();
    });
  });
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
