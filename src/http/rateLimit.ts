/**
 * Workers Rate Limiting bindings (wrangler.toml `[[ratelimits]]`), shared by the steps that
 * use them (`limitByAddress`, `limitByCaller`). Over the limit: 429 with Retry-After and a
 * JSON-RPC error.
 */
import { rateLimited } from '../mcp/errors';
import type { HttpContext } from './context';

/** The period of the limiters in wrangler.toml (the binding allows 10 or 60). */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

/** The address Cloudflare saw the request come from. */
export const clientAddress = (request: Request) => request.headers.get('CF-Connecting-IP') ?? 'unknown';

export async function overLimit(context: HttpContext, limiter: RateLimit, key: string): Promise<Response | undefined> {
  const { success } = await limiter.limit({ key });
  if (success) return undefined;
  const response = context.fail(null, rateLimited());
  response.headers.set('Retry-After', String(RATE_LIMIT_PERIOD_SECONDS));
  return response;
}
