import type { HttpContext } from '../context';
import { startSpan } from '../trace';

/**
 * Opens this request's span (one per MCP request), first of the `/mcp` steps so that it
 * covers every refusal too. `endTrace` names it and records the outcome once the answer ends.
 */
export function startTrace(context: HttpContext): undefined {
  context.span = startSpan(context.ctx, 'mcp');
  return undefined;
}
