/**
 * Browsers, before and after the request (in the shape of itty-router's `cors()`, which gives a
 * `preflight` and a `corsify` to register in both places): `checkOrigin` before every route
 * decides whether the page's origin may call at all (the public documents of `../discovery/discovery.ts`
 * excepted: any page may read them), `addCors` after every answer lets an allowed page read it,
 * and `preflight` answers `OPTIONS /mcp`. Written here rather than with
 * itty's `cors()` because the origin policy is a security check (403, not a missing header) and
 * the allowed request headers include a family (`Mcp-Param-*`) that a fixed list cannot express.
 */
import { originNotAllowed } from '../../mcp/internal.js';
import type { HttpContext } from '../context.js';
import { isPublicDocument } from '../discovery/discovery.js';
import { pathOf } from '../transport/url.js';

/** Request headers a browser may send: the MCP headers (spec streamable-http, Request Metadata) and trace context. */
const ALLOWED_HEADER =
  /^(content-type|accept|authorization|mcp-protocol-version|mcp-method|mcp-name|mcp-param-[!#$%&'*+\-.^_`|~0-9a-z]+|traceparent|tracestate|baggage)$/i;
const EXPOSED_HEADERS = 'MCP-Protocol-Version, Mcp-Method, Mcp-Name, WWW-Authenticate, Retry-After';
const PREFLIGHT_MAX_AGE = '86400';

/**
 * Before every route. spec 2026-07-28 streamable-http, Security: an `Origin` that is present
 * must be allowed (ALLOWED_ORIGINS), else 403, against DNS rebinding. Requests without one
 * (every client that is not a browser) pass; an allowed one is kept for `addCors`.
 */
function checkOrigin(context: HttpContext): Response | undefined {
  const origin = context.request.headers.get('Origin');
  if (origin === null) return undefined;
  // The Server Card and the AI Catalog are public metadata, readable from any origin (./discovery.ts).
  if (isPublicDocument(pathOf(context.url))) return undefined;
  if (!context.settings.allowsOrigin(origin) && !isOwnPage(context, origin))
    return context.fail(null, originNotAllowed(origin));
  context.allowedOrigin = origin;
  return undefined;
}

/** A mode may serve pages that post back with the Worker's own origin (sign-in's consent page: the issuer, from AUTH_RESOURCE). */
const isOwnPage = ({ settings }: HttpContext, origin: string) => origin === settings.auth.pagesOrigin;

/** `OPTIONS /mcp`: the preflight for an allowed origin (`checkOrigin` has refused the others). */
function preflight({ request }: HttpContext): Response {
  const headers = new Headers({
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
  });
  const requested = request.headers.get('Access-Control-Request-Headers');
  if (requested) {
    const allowed = requested
      .split(',')
      .map((h: string) => h.trim())
      .filter((h: string) => ALLOWED_HEADER.test(h));
    if (allowed.length > 0) headers.set('Access-Control-Allow-Headers', allowed.join(', '));
  }
  return new Response(null, { status: 204, headers });
}

/** After every answer, whatever it is: lets the page of the origin `checkOrigin` allowed read it. */
function addCors(response: Response, context: HttpContext): Response {
  const origin = context.allowedOrigin;
  if (origin === undefined) return response;
  response.headers.set('Access-Control-Allow-Origin', origin);
  response.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  response.headers.append('Vary', 'Origin');
  return response;
}

/** The three, for `router.ts` to register where each belongs: `check` before, `preflight` on OPTIONS, `add` finally. */
export const cors = { check: checkOrigin, preflight, add: addCors } as const;
