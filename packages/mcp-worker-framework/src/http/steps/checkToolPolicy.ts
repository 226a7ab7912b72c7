import type { AdmittedContext } from '../context.js';
import { checkParamHeaders } from '../transport/headers.js';

/**
 * What a tool demands of a `tools/call` over HTTP, for the tool the core admitted
 * (`readMessage`): its `Mcp-Param-*` headers mirror the arguments (spec 2026-07-28
 * streamable-http, x-mcp-header: -32020). Who may call it (its `visibleTo` rule, its
 * `requiredScopes`) was decided once, by the admission; protocol rules, such as the client
 * capabilities a tool requires (-32021), are the core's (`src/mcp/methods/callTool.ts`), so
 * every transport applies them. Add a tool's own HTTP rule (an allowlist, a header it needs) here.
 */
export function checkToolPolicy(context: AdmittedContext): Response | undefined {
  const { received } = context;
  // A notification names no tool; a legacy client sends no Mcp-Param-* headers (spec 2025-11-25 has none).
  if (received.meta === undefined || received.meta.era === 'legacy') return undefined;
  const { message, admission } = received;
  const { headerParams } = admission;
  if (headerParams === undefined) return undefined;
  const mismatch = checkParamHeaders(context.request.headers, headerParams, message.params?.arguments);
  return mismatch ? context.fail(message.id, mismatch) : undefined;
}
