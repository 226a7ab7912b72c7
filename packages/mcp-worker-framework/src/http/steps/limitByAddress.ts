import type { HttpContext } from '../context.js';
import { addressKey, overLimit } from '../rateLimit.js';

/**
 * With authorization on, every request counts against its client address (ADDRESS_RATE_LIMITER)
 * before its token is verified: a flood of invalid tokens is refused with 429 before it costs a
 * signature check or a JWKS fetch. Without authorization there is nothing to verify, and
 * `limitByCaller` already keys on the address.
 */
export function limitByAddress(context: HttpContext): Promise<Response | undefined> | undefined {
  const limiter = context.env.ADDRESS_RATE_LIMITER;
  if (!limiter || context.settings.auth.mode === 'none') return undefined;
  return overLimit(context, limiter, addressKey(context.request));
}
