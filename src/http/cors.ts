/**
 * Origin policy and CORS for browser clients (spec 2026-07-28 streamable-http, Security:
 * 403 for an Origin that is present and not allowed, against DNS rebinding).
 * Written here rather than with itty-router's `cors()` because the allowed request headers
 * include a family (`Mcp-Param-*`) that a fixed list cannot express.
 */
import { originNotAllowed } from '../mcp/errors';
import { errorResponse } from './respond';
import { settingsFor } from './settings';

/** Request headers a browser may send: the MCP headers (spec streamable-http, Request Metadata) and trace context. */
const ALLOWED_HEADER = /^(content-type|accept|authorization|mcp-protocol-version|mcp-method|mcp-name|mcp-param-[!#$%&'*+\-.^_`|~0-9a-z]+|traceparent|tracestate|baggage)$/i;
const EXPOSED_HEADERS = 'MCP-Protocol-Version, Mcp-Method, Mcp-Name, WWW-Authenticate, Retry-After';
const PREFLIGHT_MAX_AGE = '86400';

/** Router `before` step: refuses a disallowed Origin before anything else is read. */
export function guardOrigin(request: Request, env: Env): Response | undefined {
  const origin = request.headers.get('Origin');
  if (origin === null || settingsFor(env).allowsOrigin(origin)) return undefined;
  return errorResponse(null, originNotAllowed(origin));
}

/** `OPTIONS /mcp`: the preflight for an allowed origin (disallowed ones never get here). */
export function preflight(request: Request): Response {
  const headers = new Headers({
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
  });
  const requested = request.headers.get('Access-Control-Request-Headers');
  if (requested) {
    const allowed = requested.split(',').map((h) => h.trim()).filter((h) => ALLOWED_HEADER.test(h));
    if (allowed.length > 0) headers.set('Access-Control-Allow-Headers', allowed.join(', '));
  }
  return new Response(null, { status: 204, headers });
}

/** Router `finally` step: lets the calling page read the response. */
export function withCors(response: Response | undefined, request: Request): Response | undefined {
  const origin = request.headers.get('Origin');
  if (!response || origin === null || response.status === 403) return response;
  response.headers.set('Access-Control-Allow-Origin', origin);
  response.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  response.headers.append('Vary', 'Origin');
  return response;
}
