/**
 * Routes. `POST /mcp`, the endpoint and nearly every request, is recognised from the URL
 * string and handed straight to the binding; itty-router routes the rest: `OPTIONS /mcp`
 * (CORS preflight), `GET`/`DELETE /mcp` → 405 (spec 2026-07-28 streamable-http: no GET
 * stream, no sessions to delete), anything else → 404. Profiled under workerd, itty's URL
 * parsing and matching cost about 35 µs a request, a fifth of a bare Worker's whole
 * budget (BENCHMARKS.md), so the hot path does without it. The Origin policy and the CORS
 * headers wrap both.
 */
import { Router, type IRequest } from 'itty-router';
import { hostNotAllowed, internalError, originNotAllowed, rateLimited } from '../mcp/errors';
import type { McpServer } from '../mcp/server';
import { authenticate, METADATA_PATH, protectedResourceMetadata, type JwtVerifier, type Principal } from './auth';
import { preflight, withCors } from './cors';
import { writeLog, type RequestLog } from './log';
import { mcpEndpoint } from './mcp';
import { errorResponse } from './respond';
import { settingsFor, type Settings } from './settings';
import { originOf, pathOf } from './url';

export const MCP_PATH = '/mcp';

const methodNotAllowed = () => new Response(null, { status: 405, headers: { Allow: 'POST' } });
const notFound = () => new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
/** Last resort: log it, answer -32603 without a stack trace. */
const crashed = (error: unknown) => {
  console.error('unhandled error', error);
  return errorResponse(null, internalError());
};

function metadata(request: IRequest, env: Env): Response {
  const settings = settingsFor(env);
  // With no authorization server (AUTH_MODE none, or a bearer secret) there is no metadata to advertise.
  return settings.auth.authorizationServers.length === 0 || settings.auth.mode === 'none' ? notFound() : protectedResourceMetadata(settings, new URL(request.url).origin);
}

export interface RouterOptions {
  /** Needed for AUTH_MODE = "jwt": `verifyJwt` from `./jwt` (kept out of bundles that do not use it). */
  verifyJwt?: JwtVerifier;
}

export function createRouter(server: McpServer, options: RouterOptions = {}) {
  const endpoint = mcpEndpoint(server);
  const router = Router<IRequest, [Env, ExecutionContext]>({ catch: crashed })
    .options(MCP_PATH, preflight)
    .all(MCP_PATH, methodNotAllowed)
    // RFC 9728, also at the path-suffixed location for the resource /mcp
    .get(METADATA_PATH, metadata)
    .get(`${METADATA_PATH}${MCP_PATH}`, metadata)
    .all('*', notFound);

  /** `POST /mcp`: rate limit, authenticate, then the binding. */
  async function mcp(request: Request, env: Env, settings: Settings, log: RequestLog | undefined): Promise<Response> {
    let principal: Principal | undefined;
    if (settings.auth.mode !== 'none') {
      const auth = await authenticate(request, settings, originOf(request.url), options.verifyJwt);
      if (auth.refused) return auth.refused;
      principal = auth.principal;
    }
    if (env.MCP_RATE_LIMITER || env.DISCOVER_RATE_LIMITER) {
      const limited = await overLimit(request, env, principal?.subject);
      if (limited) return limited;
    }
    return endpoint(request, env, settings, principal, log);
  }

  return {
    async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
      // spec 2026-07-28 streamable-http, Security: a present Origin must be allowed, else 403 (DNS rebinding)
      const settings = settingsFor(env);
      const origin = request.headers.get('Origin');
      if (origin !== null && !settings.allowsOrigin(origin)) return errorResponse(null, originNotAllowed(origin));
      const host = request.headers.get('Host');
      if (!settings.allowsHost(host)) return errorResponse(null, hostNotAllowed(host ?? '(none)'));
      const startedAt = settings.requestLogs ? performance.now() : 0;
      const log: RequestLog | undefined = settings.requestLogs ? {} : undefined;
      let response: Response;
      try {
        response =
          request.method === 'POST' && pathOf(request.url) === MCP_PATH
            ? await mcp(request, env, settings, log)
            : await router.fetch(request as IRequest, env, ctx);
      } catch (error) {
        response = crashed(error);
      }
      if (log?.method) writeLog({ ...log, status: response.status }, startedAt);
      return origin === null ? response : withCors(response, origin);
    },
  };
}

/**
 * Workers Rate Limiting bindings (wrangler.toml `[[ratelimits]]`), when configured: keyed by
 * the principal, else the client's IP; `server/discover` (cheap, cacheable) has its own, looser
 * limiter. Over the limit: 429 with Retry-After and a JSON-RPC error.
 */
async function overLimit(request: Request, env: Env, principal: string | undefined): Promise<Response | undefined> {
  const limiter = request.headers.get('Mcp-Method') === 'server/discover' ? (env.DISCOVER_RATE_LIMITER ?? env.MCP_RATE_LIMITER) : env.MCP_RATE_LIMITER;
  if (!limiter) return undefined;
  const key = principal ? `principal:${principal}` : `ip:${request.headers.get('CF-Connecting-IP') ?? 'unknown'}`;
  const { success } = await limiter.limit({ key });
  if (success) return undefined;
  const response = errorResponse(null, rateLimited());
  response.headers.set('Retry-After', String(RATE_LIMIT_PERIOD_SECONDS));
  return response;
}

/** The period of the limiters in wrangler.toml (the binding allows 10 or 60). */
const RATE_LIMIT_PERIOD_SECONDS = 60;
