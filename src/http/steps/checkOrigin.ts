import { originNotAllowed } from '../../mcp/errors';
import type { HttpContext } from '../context';

/**
 * spec 2026-07-28 streamable-http, Security: an `Origin` that is present must be allowed
 * (ALLOWED_ORIGINS), else 403, against DNS rebinding. Requests without one (every client
 * that is not a browser) pass; an allowed one gets CORS headers back (`addCors`).
 */
export function checkOrigin(context: HttpContext): Response | undefined {
  const origin = context.request.headers.get('Origin');
  if (origin === null) return undefined;
  if (!context.settings.allowsOrigin(origin)) return context.fail(null, originNotAllowed(origin));
  context.allowedOrigin = origin;
  return undefined;
}
