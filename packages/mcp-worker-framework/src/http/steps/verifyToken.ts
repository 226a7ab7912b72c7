import type { Caller, ScopeHierarchy } from '../../mcp/internal.js';
import type { AuthModeBase } from '../auth/authMode.js';
import type { HttpContext } from '../context.js';

/**
 * Authorization (spec 2026-07-28 basic/authorization): the bearer token (or, behind Cloudflare
 * Access, its token) must be valid for this resource, else 401 with a `WWW-Authenticate`
 * challenge that points at the resource metadata; 503 with `Retry-After` while the issuer's keys
 * or its introspection endpoint cannot be had. Sets
 * `context.caller`, its scopes widened once by the server's `scopeHierarchy`. Does nothing
 * with AUTH_MODE = "none".
 */
export function verifyToken(context: HttpContext): Promise<Response | undefined> | undefined {
  // The settings name the mode AUTH_MODE picked, among those the entry includes: none, nothing to verify.
  const mode = context.settings.authMode;
  return mode ? verify(context, mode) : undefined;
}

async function verify(context: HttpContext, mode: AuthModeBase): Promise<Response | undefined> {
  // The mode's own check (`authMode` of ../auth/auth.ts): a Worker that lists no mode carries none of it.
  const outcome = await mode.authenticate(context.request, context.settings.auth, context.env, context.ctx);
  if (!outcome.refused) {
    context.caller = outcome.caller && widened(outcome.caller, context.server.scopeHierarchy);
    return undefined;
  }
  // Its challenge (401) or Retry-After (503): `context.fail` answers it (`../transport/errorAnswer.ts`).
  return context.fail(null, outcome.refused);
}

/** spec 2026-07-28 basic/authorization, Step-Up: a broader scope implies narrower ones, for every check after this one. */
function widened(caller: Caller, hierarchy: ScopeHierarchy): Caller {
  const scopes = hierarchy.grants(caller.scopes);
  return scopes === caller.scopes ? caller : { ...caller, scopes };
}
