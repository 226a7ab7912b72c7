/**
 * The request's trace span, opened and closed: `startTrace`, first of the `/mcp` steps so that
 * the span covers every refusal too, and `endTrace`, a finally step that names it and records
 * the outcome once the answer has really ended (a stream when it closes). The runtime's tracing
 * API is in `../observability/trace.ts`; docs/observability.md says what a span carries.
 */
import type { HttpContext } from '../context.js';
import { outcomeOf } from '../observability/requestAttributes.js';
import { startSpan } from '../observability/trace.js';

/** Opens this request's span (one per MCP request), when the runtime traces it. */
function startTrace(context: HttpContext): undefined {
  context.span = startSpan(context.ctx, 'mcp');
  return undefined;
}

/**
 * Closes the span `startTrace` opened, when the answer has ended. Its name and attributes follow
 * OpenTelemetry's semantic conventions for MCP: span `{mcp.method.name} {target}` (e.g.
 * `tools/call add`), the same attributes as the request log, status `error` with the JSON-RPC
 * code when the request failed.
 */
function endTrace(response: Response, context: HttpContext): undefined {
  const span = context.span;
  if (!span) return undefined;
  const status = response.status;
  context.whenEnded((endedBy) => {
    const attributes = outcomeOf(context, status, endedBy);
    const method = attributes['mcp.method.name'];
    const target = attributes['gen_ai.tool.name'] ?? attributes['gen_ai.prompt.name'] ?? attributes['mcp.resource.uri'];
    if (method !== undefined) span.updateName(target === undefined ? String(method) : `${method} ${target}`);
    span.setAttributes(attributes);
    if (attributes['error.type'] !== undefined)
      span.setStatus({ code: 'error', message: String(attributes['error.type']) });
    span.end();
  });
  return undefined;
}

/** The pair, for `router.ts` to register in both places: `start` among the `/mcp` steps, `end` finally. */
export const requestSpan = { start: startTrace, end: endTrace } as const;
