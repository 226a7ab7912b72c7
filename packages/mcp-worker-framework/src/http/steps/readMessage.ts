import {
  hasModernClaim,
  type JSONRPCRequest,
  McpError,
  noLegacyHandshake,
  parseMessage,
  readLegacyMeta,
  readRequestMeta,
  type RequestMeta,
  unsupportedVersion,
} from '../../mcp/internal.js';
import type { AdmittedMessage, HttpContext } from '../context.js';
import { checkHeaders } from '../transport/headers.js';

/**
 * Reads `POST /mcp` into one validated JSON-RPC message (spec 2026-07-28 streamable-http):
 * the body (JSON media type 415, size 413, UTF-8 and JSON -32700), the envelope (-32600), the
 * era (modern when the body claims a version or the header names one this server speaks as
 * modern; else legacy, spec basic/versioning, Backward Compatibility), `_meta` (-32602) and
 * the agreement of the headers with the body (-32020). A notification needs no `_meta`.
 *
 * Then the core admits the request, once (`CompiledServer.admit`, src/mcp/admission.ts): its
 * version for the era (-32022), its method (-32601), the item it names, visible to the caller
 * (-32602) and with its scopes granted (403 and the step-up challenge). What it admits is one
 * record, `context.received`: the message, its `_meta` and the core's `Admission`. The steps
 * after it receive that record typed (`AdmittedContext`) and check none of it again: the rate
 * limit is chosen from the method the server will really serve, the `Mcp-Param-*` headers from
 * the tool the core will run, and the core serves what it admitted.
 */
export async function readMessage(context: HttpContext): Promise<Response | undefined> {
  const body = await context.body();
  if (body instanceof McpError) return context.fail(null, body);
  const parsed = parseMessage(body);
  if (parsed.error) return context.fail(parsed.id, parsed.error);
  const { message } = parsed;
  if (!('id' in message)) return admit(context, { message, meta: undefined, admission: undefined });
  const meta = readMeta(context, message);
  if (meta instanceof McpError) return refuse(context, message, undefined, meta);
  if (meta.era !== 'legacy') {
    const mismatch = checkHeaders(context.request.headers, message, meta, context.protocolVersionHeader);
    if (mismatch) return refuse(context, message, meta, mismatch);
  }
  const admission = context.server.admit(message, meta, context.caller, context.settings.legacyClients);
  if (admission instanceof McpError) return refuse(context, message, meta, admission);
  return admit(context, { message, meta, admission });
}

/** `_meta` by the message's era; a legacy one only when legacy clients are served (LEGACY_CLIENTS). */
function readMeta(context: HttpContext, message: JSONRPCRequest): RequestMeta | McpError {
  const { server, settings } = context;
  const header = context.protocolVersionHeader;
  if (hasModernClaim(message.params) || server.supportedVersions.includes(header ?? ''))
    return readRequestMeta(message.params);
  if (settings.legacyClients) return readLegacyMeta(message.params, header);
  if (message.method === 'initialize') return noLegacyHandshake(server.supportedVersions, message.params);
  // spec 2026-07-28 basic/versioning: a version the server does not serve is -32022, even named by the header alone
  if (header !== null) return unsupportedVersion(server.servedVersions(false), header);
  return readRequestMeta(message.params);
}

function admit(context: HttpContext, admitted: AdmittedMessage): undefined {
  context.received = admitted;
  return undefined;
}

/** Refuses a message it has read: the log and the span still name its method, id and what `_meta` said. */
function refuse(
  context: HttpContext,
  message: JSONRPCRequest,
  meta: RequestMeta | undefined,
  error: McpError,
): Response {
  context.received = { message, meta, admission: undefined };
  return context.fail(message.id, error);
}
