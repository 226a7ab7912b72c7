/**
 * Routes (itty-router): `POST /mcp` is the endpoint, `OPTIONS /mcp` its CORS preflight,
 * `GET`/`DELETE /mcp` are 405 (spec 2026-07-28 streamable-http: no GET stream, no
 * sessions to delete), anything else is 404.
 */
import { Router } from 'itty-router';
import { internalError } from '../mcp/errors';
import type { McpServer } from '../mcp/server';
import { guardOrigin, preflight, withCors } from './cors';
import { mcpEndpoint } from './mcp';
import { errorResponse } from './respond';

export const MCP_PATH = '/mcp';

const methodNotAllowed = () => new Response(null, { status: 405, headers: { Allow: 'POST' } });
const notFound = () => new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

export function createRouter(server: McpServer) {
  const router = Router<Request, [Env, ExecutionContext]>({
    before: [guardOrigin],
    catch: (error) => {
      // Last resort: log it, answer -32603 without a stack trace.
      console.error('unhandled error', error);
      return errorResponse(null, internalError());
    },
    finally: [withCors],
  });
  router
    .post(MCP_PATH, mcpEndpoint(server))
    .options(MCP_PATH, preflight)
    .all(MCP_PATH, methodNotAllowed)
    .all('*', notFound);
  return router;
}
