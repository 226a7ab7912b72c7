/**
 * CORS for browser clients: the preflight and the headers that let an allowed page read
 * the answer. (The Origin check itself is the first step, `steps/checkOrigin.ts`.) Written here rather
 * than with itty-router's `cors()` because the allowed request headers include a family
 * (`Mcp-Param-*`) that a fixed list cannot express.
 */
import type { HttpContext } from './context';

/** Request headers a browser may send: the MCP headers (spec streamable-http, Request Metadata) and trace context. */
const ALLOWED_HEADER = /^(content-type|accept|authorization|mcp-protocol-version|mcp-method|mcp-name|mcp-param-[!#$%&'*+\-.^_`|~0-9a-z]+|traceparent|tracestate|baggage)$/i;
const EXPOSED_HEADERS = 'MCP-Protocol-Version, Mcp-Method, Mcp-Name, WWW-Authenticate, Retry-After';
const PREFLIGHT_MAX_AGE = '86400';

/** `OPTIONS /mcp`: the preflight for an allowed origin (disallowed ones never get here). */
export function preflight({ request }: HttpContext): Response {
  const headers = new Headers({
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
  });
  const requested = request.headers.get('Access-Control-Request-Headers');
  if (requested) {
    const allowed = requested.split(',').map((h: string) => h.trim()).filter((h: string) => ALLOWED_HEADER.test(h));
    if (allowed.length > 0) headers.set('Access-Control-Allow-Headers', allowed.join(', '));
  }
  return new Response(null, { status: 204, headers });
}

/** Lets the calling page (an allowed origin) read the response. */
export function withCors(response: Response, origin: string): Response {
  response.headers.set('Access-Control-Allow-Origin', origin);
  response.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  response.headers.append('Vary', 'Origin');
  return response;
}
