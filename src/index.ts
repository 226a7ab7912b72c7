/**
 * A stateless MCP server (revision 2026-07-28) on Cloudflare Workers.
 *
 *   npm run dev    serves http://localhost:8787/mcp
 *   npm test       runs the tests, the HTTP ones against this Worker in workerd
 *
 * The Worker, composed in code: your server (src/server.ts), the auth modes it may serve, the
 * features it turns on. Request path: src/http/router.ts (the steps of a request, in order) →
 * src/mcp/createServer.ts (protocol core) → the tools listed in src/server.ts.
 */
import { apps } from './apps';
import { bearer } from './auth';
import { createWorker } from './createWorker';
import { serverDefinition } from './server';

const worker = createWorker(serverDefinition, {
  // The AUTH_MODE values served besides "none" (docs/production.md): bearer, which needs no
  // other server. The modes that check a token with an authorization server are one word each
  // to add, imported from './auth': jwt and access (they bring jose, 7.5 KB gzip), introspect.
  // Every KB in the bundle is paid at each cold start (docs/performance.md). Sign-in: signIn()
  // of './signin', and OAUTH_KV (docs/sign-in.md).
  auth: [bearer],
  // MCP Apps: tools with a view (docs/apps.md; drop it with the last view). Tasks: tasks() of
  // './tasks', and the MCP_TASKS block of wrangler.toml (docs/tasks.md). Notifications of changes
  // to every listener, sent with notify(env, …): `const changes = notifications()` of
  // './notifications' listed here, `export class McpNotifications extends changes.Hub {}` below,
  // and the MCP_NOTIFICATIONS block of wrangler.toml (docs/notifications.md).
  extensions: [apps()],
});

/** The Durable Object of a task, bound as MCP_TASKS when tasks are on; a stand-in nothing uses while off. */
export class McpTask extends worker.McpTask {}

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
