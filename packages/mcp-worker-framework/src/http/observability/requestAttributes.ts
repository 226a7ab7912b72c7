/**
 * What a request was and how it ended, as one flat record with the names of OpenTelemetry's
 * semantic conventions (HTTP, JSON-RPC, and MCP / generative AI: `mcp.method.name`,
 * `gen_ai.tool.name`, `mcp.protocol.version`, `rpc.jsonrpc.error_code`, `error.type`), so the
 * request log and the trace span say the same thing in the same words. Read from the
 * request's context once the answer has ended; never tokens or arguments.
 *
 * Every value the client chose is bounded: a string longer than `MAX_ATTRIBUTE_CHARS` is cut
 * there and marked with "…", so a 1 MB id or tool name makes a line of the usual size; the
 * trace context is the validated one (`../../mcp/traceContext.ts`, a tracestate of at most 512).
 */
import type { RequestId } from '../../mcp/internal.js';
import type { Attributes, HttpContext } from '../context.js';
import type { StreamEnd } from '../transport/stream.js';
import { callerTrace } from './trace.js';
import { pathOf } from '../transport/url.js';

/** The longest string attribute, in UTF-16 code units, before its "…". */
export const MAX_ATTRIBUTE_CHARS = 256;

/** The request's attributes, worked out once however many steps ask (the log line, the span). */
export function outcomeOf(context: HttpContext, status: number, endedBy?: StreamEnd): Attributes {
  return (context.outcome ??= requestAttributes(context, status, endedBy));
}

/**
 * Every attribute in one object literal of a fixed shape, absent ones `undefined` (which
 * `JSON.stringify` and the runtime's `setAttributes` leave out): built and serialized in one
 * pass, with no object growing key by key.
 */
function requestAttributes(context: HttpContext, status: number, endedBy?: StreamEnd): Attributes {
  const { received, error } = context;
  const message = received?.message;
  const meta = received?.meta;
  const params = message?.params;
  const method = message?.method;
  const text = (value: unknown) => (typeof value === 'string' ? bounded(value) : undefined);
  const client = meta?.clientInfo;
  // The caller's W3C trace context (from _meta, else the headers): the runtime cannot yet make a
  // remote span the parent of its own, so the span and the log line carry it to join them by.
  const trace = callerTrace(meta, context.request.headers);
  return {
    'http.request.method': bounded(context.method),
    'url.path': bounded(pathOf(context.url)),
    'http.response.status_code': status,
    'mcp.method.name': text(method),
    'jsonrpc.request.id': message && 'id' in message ? bounded(idText(message.id)) : undefined,
    'jsonrpc.batch.size': context.batchSize,
    'gen_ai.tool.name': method === 'tools/call' ? text(params?.name) : undefined,
    'gen_ai.prompt.name': method === 'prompts/get' ? text(params?.name) : undefined,
    'mcp.resource.uri': method === 'resources/read' ? text(params?.uri) : undefined,
    'mcp.protocol.version': text(meta?.protocolVersion),
    'mcp.era': meta?.era,
    'mcp.client': client ? bounded(`${bounded(client.name)}/${bounded(client.version)}`) : undefined,
    traceparent: trace?.traceparent,
    tracestate: trace?.tracestate,
    'rpc.jsonrpc.error_code': error?.code,
    'error.type': error ? String(error.code) : status >= 400 ? String(status) : undefined,
    'mcp.stream.ended_by': endedBy,
  };
}

/** An id as text: an integer beyond 2^53 is a `JSON.rawJSON` value, its digits in `rawJSON` (`String` of it throws). */
const idText = (id: RequestId): string => (typeof id === 'object' ? id.rawJSON : String(id));

/** `value`, or its first `MAX_ATTRIBUTE_CHARS` code units and "…" (never half of a surrogate pair). */
export function bounded(value: string): string {
  if (value.length <= MAX_ATTRIBUTE_CHARS) return value;
  const lead = value.charCodeAt(MAX_ATTRIBUTE_CHARS - 1);
  const end = lead >= 0xd800 && lead <= 0xdbff ? MAX_ATTRIBUTE_CHARS - 1 : MAX_ATTRIBUTE_CHARS;
  return `${value.slice(0, end)}…`;
}
