/**
 * What a request was and how it ended, as one flat record with the names of OpenTelemetry's
 * semantic conventions (HTTP, JSON-RPC, and MCP / generative AI: `mcp.method.name`,
 * `gen_ai.tool.name`, `mcp.protocol.version`, `rpc.jsonrpc.error_code`, `error.type`), so the
 * request log and the trace span say the same thing in the same words. Read from the
 * request's context once the answer has ended; never tokens or arguments.
 */
import type { Attributes, HttpContext } from './context';
import type { StreamEnd } from './stream';
import { pathOf } from './url';

/** Where a method names its target, and the attribute that reports it. */
const TARGET: Readonly<Record<string, [param: 'name' | 'uri', attribute: string]>> = {
  'tools/call': ['name', 'gen_ai.tool.name'],
  'prompts/get': ['name', 'gen_ai.prompt.name'],
  'resources/read': ['uri', 'mcp.resource.uri'],
};

/** The request's attributes, worked out once however many steps ask (the log line, the span). */
export function outcomeOf(context: HttpContext, status: number, endedBy?: StreamEnd): Attributes {
  if (!context.outcome) {
    context.outcome = requestAttributes(context, status);
    if (endedBy) context.outcome['mcp.stream.ended_by'] = endedBy;
  }
  return context.outcome;
}

export function requestAttributes(context: HttpContext, status: number): Attributes {
  const attributes: Attributes = {
    'http.request.method': context.method,
    'url.path': pathOf(context.url),
    'http.response.status_code': status,
  };
  const { message, meta, error } = context;
  if (context.batchSize !== undefined) attributes['jsonrpc.batch.size'] = context.batchSize;
  if (message) {
    attributes['mcp.method.name'] = message.method;
    if ('id' in message) attributes['jsonrpc.request.id'] = String(message.id);
    const target = TARGET[message.method];
    const value = target && message.params?.[target[0]];
    if (target && typeof value === 'string') attributes[target[1]] = value;
  }
  if (meta) {
    attributes['mcp.protocol.version'] = meta.protocolVersion;
    if (meta.era === 'legacy') attributes['mcp.era'] = 'legacy';
    if (meta.clientInfo) attributes['mcp.client'] = `${meta.clientInfo.name}/${meta.clientInfo.version}`;
  }
  // The caller's W3C trace context (from _meta, else the headers): the runtime cannot yet make a
  // remote span the parent of its own, so the span and the log line carry it to join them by.
  const traceparent = meta?.traceparent ?? context.request.headers.get('traceparent');
  if (traceparent) {
    attributes.traceparent = traceparent;
    const tracestate = meta?.tracestate ?? context.request.headers.get('tracestate');
    if (tracestate) attributes.tracestate = tracestate;
  }
  if (error) {
    attributes['rpc.jsonrpc.error_code'] = error.code;
    attributes['error.type'] = String(error.code);
  } else if (status >= 400) {
    attributes['error.type'] = String(status);
  }
  return attributes;
}
