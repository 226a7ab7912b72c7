/**
 * `POST /mcp`: the Streamable HTTP binding (spec 2026-07-28 basic/transports/streamable-http).
 * Body → one JSON-RPC message → `_meta` → headers agree with body → the protocol core.
 * Each request stands alone: `Mcp-Session-Id` and `Last-Event-ID` are ignored, nothing is stored.
 */
import { internalError, legacyHttpStatus, McpError, unsupportedVersion } from '../mcp/errors';
import { parseMessage } from '../mcp/jsonrpc';
import { hasModernClaim, legacyMeta, readRequestMeta, type RequestMeta } from '../mcp/meta';
import type { CallContext, McpServer, Reply } from '../mcp/server';
import type { JSONRPCRequest, RequestId } from '../mcp/types';
import { BATCH_VERSION, serveBatch } from './batch';
import { readJsonBody } from './body';
import { checkHeaders } from './headers';
import { listenResponse } from './listen';
import { errorResponse, notificationJson, replyJson, replyResponse } from './respond';
import { insufficientScope, metadataUrl, missingScopes, type Principal } from './auth';
import type { RequestLog } from './log';
import type { Settings } from './settings';
import { EventStream } from './stream';
import { originOf } from './url';

/** While a request's answer streams, a comment this often notices a client that left. */
export const STREAM_HEARTBEAT_MS = 1_000;

/** A legacy request without MCP-Protocol-Version is 2025-03-26 (spec 2026-07-28 streamable-http, Protocol Version Header). */
const LEGACY_DEFAULT_VERSION = BATCH_VERSION;

/** 202 Accepted with no body: the answer to every notification (spec: never a result for one). */
const accepted = () => new Response(null, { status: 202 });

export function mcpEndpoint(server: McpServer) {
  return async function handleMcp(request: Request, env: Env, settings: Settings, principal: Principal | undefined, log: RequestLog | undefined): Promise<Response> {
    const fail = (id: RequestId | null, error: McpError) => {
      if (log) log.code = error.code;
      return errorResponse(id, error);
    };
    const body = await readJsonBody(request, settings.maxBodyBytes);
    if (body instanceof McpError) return fail(null, body);
    const parsed = parseMessage(body);
    if (parsed.error) {
      if (parsed.batch && settings.legacyClients && (request.headers.get('MCP-Protocol-Version') ?? BATCH_VERSION) === BATCH_VERSION) {
        if (log) log.method = '(batch)';
        return serveBatch(parsed.batch, request, (member) => handleMcp(member, env, settings, principal, undefined));
      }
      return fail(parsed.id, parsed.error);
    }
    const message = parsed.message;
    if (log) {
      log.method = message.method;
      const target = message.params?.name ?? message.params?.uri;
      if (typeof target === 'string') log.name = target;
    }
    if (!('id' in message)) return accepted();

    // Modern when the body claims a version, or the header names one this server speaks as modern.
    const call = { request, env, settings, principal, log };
    const header = request.headers.get('MCP-Protocol-Version');
    if (!hasModernClaim(message.params) && !server.supportedVersions.includes(header ?? '')) {
      if (settings.legacyClients) return serveLegacy(server, message, call);
      if (message.method === 'initialize') return fail(message.id, legacyHandshake(server, message.params));
      // spec 2026-07-28 basic/versioning: a version the server does not serve is -32022, even named by the header alone
      if (header !== null) return fail(message.id, unsupportedVersion(server.servedVersions(false), header));
    }
    const meta = readRequestMeta(message.params);
    if (meta instanceof McpError) return fail(message.id, meta);
    if (log) Object.assign(log, { era: 'modern', protocolVersion: meta.protocolVersion, client: meta.clientInfo && `${meta.clientInfo.name}/${meta.clientInfo.version}` });
    const mismatch = checkHeaders(request.headers, message, meta, server);
    if (mismatch) return fail(message.id, mismatch);
    if (message.method === 'tools/call' && typeof message.params?.name === 'string') {
      // spec 2026-07-28 basic/authorization: a token without the tool's scopes gets 403 insufficient_scope
      const missing = missingScopes(principal, server.tool(message.params.name)?.definition.requiredScopes ?? []);
      if (missing.length > 0) return insufficientScope(metadataUrl(settings, originOf(request.url)), message.id, missing);
    }
    return respond(server, message, meta, call);
  };
}

/** What a request brings besides its message. */
interface Call {
  request: Request;
  env: Env;
  settings: Settings;
  principal: Principal | undefined;
  log: RequestLog | undefined;
}

/**
 * A request without a modern claim, from a client of the `initialize` era (spec 2026-07-28
 * basic/versioning, Backward Compatibility): served statelessly under the legacy rules of
 * spec 2025-11-25. Its version is the MCP-Protocol-Version header (2025-03-26 when absent,
 * as that revision allows); no session is minted or required; JSON-RPC errors come with 200.
 */
function serveLegacy(server: McpServer, message: JSONRPCRequest, call: Call): Promise<Response> | Response {
  const header = call.request.headers.get('MCP-Protocol-Version');
  const version = header ?? LEGACY_DEFAULT_VERSION;
  if (message.method !== 'initialize' && !server.legacyVersions.includes(version)) {
    // spec 2025-11-25 basic/transports: an invalid or unsupported version header is 400; the
    // body says which versions are served, as -32022 does (spec 2026-07-28 basic/versioning)
    return errorResponse(message.id, unsupportedVersion(server.servedVersions(true), version));
  }
  if (call.log) Object.assign(call.log, { era: 'legacy', protocolVersion: version });
  return respond(server, message, legacyMeta(message.params, version), call);
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
async function respond(server: McpServer, request: JSONRPCRequest, meta: RequestMeta, { request: http, env, settings, principal, log }: Call): Promise<Response> {
  // W3C trace context: from _meta, else from the HTTP headers (spec 2026-07-28 basic/index, _meta)
  const traceparent = meta.traceparent ?? http.headers.get('traceparent') ?? undefined;
  const tracestate = meta.tracestate ?? http.headers.get('tracestate') ?? undefined;
  if (traceparent && log) Object.assign(log, { traceparent, tracestate });
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
      servesLegacy: settings.legacyClients,
      principal: principal?.subject,
      scopes: principal?.scopes,
      trace: traceparent ? { traceparent, tracestate } : undefined,
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
      if (reply.error && log) log.code = reply.error.code;
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
