import { visibleTo } from '../../mcp/internal';
import { insufficientScope, metadataUrl, missingScopes } from '../auth';
import type { AdmittedContext } from '../context';
import { checkParamHeaders } from '../headers';
import { originOf } from '../url';

/**
 * What a tool demands of a `tools/call` over HTTP, decided in this one place for the tool
 * looked up once by `readMessage`: its `Mcp-Param-*` headers mirror the arguments (spec
 * 2026-07-28 streamable-http, x-mcp-header: -32020) and the caller's token grants its
 * `requiredScopes` (spec basic/authorization: 403 with the insufficient_scope challenge; the
 * caller's scopes already include the ones they imply, `scopeHierarchy`). Protocol rules,
 * such as the client capabilities a tool requires (-32021), are the core's
 * (`src/mcp/methods/callTool.ts`), so every transport applies them. An unknown tool passes: the
 * core answers it. Add a tool's own HTTP rule (an allowlist, a header it needs) here.
 */
export function checkToolPolicy(context: AdmittedContext): Response | undefined {
  const { received } = context;
  if (!received.tool) return undefined;
  const { tool, message, meta } = received;
  const id = message.id;
  if (meta.era !== 'legacy') {
    const mismatch = checkParamHeaders(context.request.headers, tool.headerParams, message.params?.arguments);
    if (mismatch) return context.fail(id, mismatch);
  }
  // Most tools demand no scope: nothing is built for them.
  const { requiredScopes } = tool.definition;
  // A tool its visibleTo rule hides is unknown to this caller: the core says so, no challenge reveals it.
  const scopes =
    requiredScopes?.length && visibleTo(tool.definition, context.caller)
      ? missingScopes(context.caller, requiredScopes)
      : [];
  if (scopes.length === 0) return undefined;
  // Ask for each need once: a missing scope that another missing one implies goes without saying.
  const { error, challenge } = insufficientScope(
    metadataUrl(context.settings, originOf(context.url)),
    context.server.scopeHierarchy.broadest(scopes),
  );
  const response = context.fail(id, error);
  response.headers.set('WWW-Authenticate', challenge);
  return response;
}
