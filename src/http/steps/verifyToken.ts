import { authenticate, type JwtVerifier } from '../auth';
import type { HttpContext, Step } from '../context';
import { originOf } from '../url';

/**
 * Authorization (spec 2026-07-28 basic/authorization): the bearer token must be valid for
 * this resource, else 401 with a `WWW-Authenticate` challenge that points at the resource
 * metadata. Sets `context.principal`. Does nothing with AUTH_MODE = "none".
 */
export function verifyToken(verifyJwt?: JwtVerifier): Step {
  return function verifyToken(context: HttpContext) {
    return context.settings.auth.mode === 'none' ? undefined : verify(context, verifyJwt);
  };
}

async function verify(context: HttpContext, verifyJwt: JwtVerifier | undefined): Promise<Response | undefined> {
  const origin = originOf(context.url);
  const outcome = await authenticate(context.request, context.settings, origin, verifyJwt);
  if (!outcome.refused) {
    context.principal = outcome.principal;
    return undefined;
  }
  const response = context.fail(null, outcome.refused);
  response.headers.set('WWW-Authenticate', outcome.challenge);
  return response;
}
