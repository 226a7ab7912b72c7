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
import { internalError, originNotAllowed } from '../mcp/errors';
import type { McpServer } from '../mcp/server';
import { preflight, withCors } from './cors';
import { mcpEndpoint } from './mcp';
import { errorResponse } from './respond';
import { settingsFor } from './settings';

export const MCP_PATH = '/mcp';

const methodNotAllowed = () => new Response(null, { status: 405, headers: { Allow: 'POST' } });
const notFound = () => new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
/** Last resort: log it, answer -32603 without a stack trace. */
const crashed = (error: unknown) => {
  console.error('unhandled error', error);
  return errorResponse(null, internalError());
};

/** The path of an absolute URL, without parsing it: `http://host:8787/mcp?x` → `/mcp`. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  let end = url.length;
  const query = url.indexOf('?', start);
  const fragment = url.indexOf('#', start);
  if (query !== -1) end = query;
  if (fragment !== -1 && fragment < end) end = fragment;
  return url.slice(start, end);
}

export function createRouter(server: McpServer) {
  const endpoint = mcpEndpoint(server);
  const router = Router<IRequest, [Env, ExecutionContext]>({ catch: crashed })
    .options(MCP_PATH, preflight)
    .all(MCP_PATH, methodNotAllowed)
    .all('*', notFound);

  return {
    async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
      // spec 2026-07-28 streamable-http, Security: a present Origin must be allowed, else 403 (DNS rebinding)
      const origin = request.headers.get('Origin');
      if (origin !== null && !settingsFor(env).allowsOrigin(origin)) return errorResponse(null, originNotAllowed(origin));
      let response: Response;
      try {
        response =
          request.method === 'POST' && pathOf(request.url) === MCP_PATH
            ? await endpoint(request, env)
            : await router.fetch(request as IRequest, env, ctx);
      } catch (error) {
        response = crashed(error);
      }
      return origin === null ? response : withCors(response, origin);
    },
  };
}
