import { hostNotAllowed } from '../../mcp/internal.js';
import type { HttpContext } from '../context.js';

/**
 * The `Host` must be one of ALLOWED_HOSTS when that is set: a name an attacker points at
 * 127.0.0.1 still carries its own Host, so a local server is safe from DNS rebinding even
 * for callers that send no Origin.
 */
export function checkHost(context: HttpContext): Response | undefined {
  const { settings } = context;
  if (settings.anyHost) return undefined; // no ALLOWED_HOSTS: nothing to check, no header to read
  const host = context.request.headers.get('Host');
  return settings.allowsHost(host) ? undefined : context.fail(null, hostNotAllowed(host ?? '(none)'));
}
