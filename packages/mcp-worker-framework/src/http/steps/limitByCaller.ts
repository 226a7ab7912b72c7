import type { AdmittedContext } from '../context.js';
import { callerKey, overLimit } from '../rateLimit.js';

/**
 * The caller's rate limit (MCP_RATE_LIMITER), keyed by the principal, else the client address.
 * It runs after the message is validated, so the limiter is chosen from the method the server
 * will really serve: `server/discover` (cheap, cacheable) has its own looser DISCOVER_RATE_LIMITER,
 * and a header cannot claim to be discover to get it.
 */
export function limitByCaller(context: AdmittedContext): Promise<Response | undefined> | undefined {
  const { env } = context;
  if (!env.MCP_RATE_LIMITER && !env.DISCOVER_RATE_LIMITER) return undefined;
  const limiter =
    context.received.message.method === 'server/discover'
      ? (env.DISCOVER_RATE_LIMITER ?? env.MCP_RATE_LIMITER)
      : env.MCP_RATE_LIMITER;
  if (!limiter) return undefined;
  return overLimit(context, limiter, callerKey(context));
}
