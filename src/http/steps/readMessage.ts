import { McpError, unsupportedVersion } from '../../mcp/errors';
import { parseMessage } from '../../mcp/jsonrpc';
import { noLegacyHandshake, readLegacyMeta } from '../../mcp/legacy';
import { hasModernClaim, readRequestMeta } from '../../mcp/meta';
import type { HttpContext } from '../context';
import { checkHeaders } from '../headers';

/**
 * Reads `POST /mcp` into one validated JSON-RPC message (spec 2026-07-28 streamable-http):
 * the body (JSON media type 415, size 413, UTF-8 and JSON -32700), the envelope (-32600), the
 * era (modern when the body claims a version or the header names one this server speaks as
 * modern; else legacy, spec basic/versioning, Backward Compatibility), `_meta` (-32602) and
 * the agreement of the headers with the body (-32020). A notification needs no `_meta`.
 *
 * Everything after this step sees a message whose method is the one the server will serve:
 * the rate limit is chosen from it, and the tool a `tools/call` names is looked up here, once.
 */
export async function readMessage(context: HttpContext): Promise<Response | undefined> {
  const { request, settings, server } = context;
  const body = await context.body();
  if (body instanceof McpError) return context.fail(null, body);
  const parsed = parseMessage(body);
  if (parsed.error) return context.fail(parsed.id, parsed.error);
  const message = parsed.message;
  context.message = message;
  if (!('id' in message)) return undefined;

  const header = context.protocolVersionHeader;
  if (!hasModernClaim(message.params) && !server.supportedVersions.includes(header ?? '')) {
    if (!settings.legacyClients) {
      if (message.method === 'initialize') return context.fail(message.id, noLegacyHandshake(server.supportedVersions, message.params));
      // spec 2026-07-28 basic/versioning: a version the server does not serve is -32022, even named by the header alone
      if (header !== null) return context.fail(message.id, unsupportedVersion(server.servedVersions(false), header));
    } else {
      const meta = readLegacyMeta(message.method, message.params, header);
      if (meta instanceof McpError) return context.fail(message.id, meta);
      context.meta = meta;
      lookUpTool(context);
      return undefined;
    }
  }
  const meta = readRequestMeta(message.params);
  if (meta instanceof McpError) return context.fail(message.id, meta);
  context.meta = meta;
  const mismatch = checkHeaders(request.headers, message, meta, header);
  if (mismatch) return context.fail(message.id, mismatch);
  lookUpTool(context);
  return undefined;
}

function lookUpTool(context: HttpContext): void {
  const name = context.message?.method === 'tools/call' ? context.message.params?.name : undefined;
  if (typeof name === 'string') context.tool = context.server.tool(name);
}
