import type { HttpContext } from '../context';
import { outcomeOf } from '../requestAttributes';

/**
 * Closes the span `startTrace` opened, when the answer has really ended (a stream when it
 * closes). Its name and attributes follow OpenTelemetry's semantic conventions for MCP: span
 * `{mcp.method.name} {target}` (e.g. `tools/call add`), the same attributes as the request log,
 * status `error` with the JSON-RPC code when the request failed.
 */
export function endTrace(response: Response, context: HttpContext): undefined {
  const span = context.span;
  if (!span) return undefined;
  const status = response.status;
  context.whenEnded((endedBy) => {
    const attributes = outcomeOf(context, status, endedBy);
    const method = attributes['mcp.method.name'];
    const target = attributes['gen_ai.tool.name'] ?? attributes['gen_ai.prompt.name'] ?? attributes['mcp.resource.uri'];
    if (method !== undefined) span.updateName(target === undefined ? String(method) : `${method} ${target}`);
    span.setAttributes(attributes);
    if (attributes['error.type'] !== undefined) span.setStatus({ code: 'error', message: String(attributes['error.type']) });
    span.end();
  });
  return undefined;
}
