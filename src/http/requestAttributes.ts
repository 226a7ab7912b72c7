/**
 * What a request was and how it ended, as one flat record with the names of OpenTelemetry's
 * semantic conventions (HTTP, JSON-RPC, and MCP / generative AI: `mcp.method.name`,
 * `gen_ai.tool.name`, `mcp.protocol.version`, `rpc.jsonrpc.error_code`, `error.type`), so the
 * request log and the trace span say the same thing in the same words. Read from the
 * request's context once the answer has ended; never tokens or arguments.
 */
import type { Attributes, HttpContext } from './context';
import type { StreamEnd } from './stream';
import { callerTrace } from './trace';
import { pathOf } from './url';

/** The request's attributes, worked out once however many steps ask (the log line, the span). */
export function outcomeOf(context: HttpContext, status: number, endedBy?: StreamEnd): Attributes {
  return (context.outcome ??= requestAttributes(context, status, endedBy));
}

/**
 * Every attribute in one object literal of a fixed shape, absent ones `undefined` (which
 * `JSON.stringify` and the runtime's `setAttributes` leave out): built and serialized in one
 * pass, with no object growing key by key.
 */
export function requestAttributes(context: HttpContext, status: number, endedBy?: StreamEnd): Attributes {
  const { message, meta, error } = context;
  const params = message?.params;
  const method = message?.method;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  // The caller's W3C trace context (from _meta, else the headers): the runtime cannot yet make a
  // remote span the parent of its own, so the span and the log line carry it to join them by.
  const trace = callerTrace(meta, context.request.headers);
  return {
    'http.request.method': context.method,
    'url.path': pathOf(context.url),
    'http.response.status_code': status,
    'mcp.method.name': method,
    'jsonrpc.request.id': message && 'id' in message ? String(message.id) : undefined,
    'jsonrpc.batch.size': context.batchSize,
    'gen_ai.tool.name': method === 'tools/call' ? text(params?.name) : undefined,
    'gen_ai.prompt.name': method === 'prompts/get' ? text(params?.name) : undefined,
    'mcp.resource.uri': method === 'resources/read' ? text(params?.uri) : undefined,
    'mcp.protocol.version': meta?.protocolVersion,
    'mcp.era': meta?.era,
    'mcp.client': meta?.clientInfo ? `${meta.clientInfo.name}/${meta.clientInfo.version}` : undefined,
    traceparent: trace?.traceparent,
    tracestate: trace?.tracestate,
    'rpc.jsonrpc.error_code': error?.code,
    'error.type': error ? String(error.code) : status >= 400 ? String(status) : undefined,
    'mcp.stream.ended_by': endedBy,
  };
}
