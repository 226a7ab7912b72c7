/**
 * A stateless MCP server (revision 2026-07-28) on Cloudflare Workers.
 *
 *   npm run dev    serves http://localhost:8787/mcp
 *   npm test       runs the tests, the HTTP ones against this Worker in workerd
 *
 * Request path: src/http/router.ts (the steps of a request, in order) → src/mcp/createServer.ts
 * (protocol core) → the tools listed in src/server.ts.
 */
import { verifyAccess } from './http/access';
import { introspect } from './http/introspect';
import { verifyJwt } from './http/jwt';
import { createRouter } from './http/router';
import { server } from './server';

// Each verifier serves one AUTH_MODE ("jwt", "access", "introspect"); drop the ones you never use
// (jose goes with the last of verifyJwt and verifyAccess).
const router = createRouter(server, { verifyJwt, verifyAccess, introspect });

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
