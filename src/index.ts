/**
 * A stateless MCP server (revision 2026-07-28) on Cloudflare Workers.
 *
 *   npm run dev    serves http://localhost:8787/mcp
 *   npm test       runs the tests, the HTTP ones against this Worker in workerd
 *
 * Request path: src/http/router.ts (the steps of a request, in order) → src/mcp/createServer.ts
 * (protocol core) → the tools listed in src/server.ts.
 */
import { verifyJwt } from './http/jwt';
import { createRouter } from './http/router';
import { server } from './server';

// verifyJwt serves AUTH_MODE = "jwt"; drop it (and jose) from the bundle if you never use that mode.
const router = createRouter(server, { verifyJwt });

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
