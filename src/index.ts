/**
 * A stateless MCP server (revision 2026-07-28) on Cloudflare Workers.
 *
 *   npm run dev    serves http://localhost:8787/mcp
 *   npm test       runs your tests, and checks that this Worker answers as the spec says
 *
 * The Worker, composed in code: your server (src/server.ts), the auth modes it may serve, the
 * features it turns on. The framework under it is the package `mcp-worker-framework`.
 */
import { apps } from 'mcp-worker-framework/apps';
import { createWorker } from 'mcp-worker-framework/worker';
import { skills } from '../skills';
import { serverDefinition } from './server';

const worker = createWorker(serverDefinition, {
  // Authorization: the one place it is decided
  // (node_modules/mcp-worker-framework/docs/production.md). None listed: no auth. List one and it
  // is served: `auth: [bearer]` (import { bearer } from 'mcp-worker-framework/auth') with the
  // secret MCP_BEARER_TOKEN; jwt and access (they bring jose, 7.5 KB gzip, paid at each cold start:
  // node_modules/mcp-worker-framework/docs/performance.md) and introspect check a token with an
  // authorization server; sign-in is signIn() of 'mcp-worker-framework/signin'
  // (node_modules/mcp-worker-framework/docs/sign-in.md). List several and AUTH_MODE in
  // wrangler.toml chooses among them.
  auth: [],
  // MCP Apps: tools with a view (node_modules/mcp-worker-framework/docs/apps.md; drop it with the
  // last view). Tasks: tasks() of 'mcp-worker-framework/tasks' listed here, `export class McpTask
  // extends worker.McpTask {}` below, and the MCP_TASKS block of wrangler.toml
  // (node_modules/mcp-worker-framework/docs/tasks.md). Notifications of changes to every listener,
  // sent with notify(env, …): notifications() of 'mcp-worker-framework/notifications' listed here,
  // `export class McpNotifications extends worker.McpNotifications {}` below, and the
  // MCP_NOTIFICATIONS block of wrangler.toml (node_modules/mcp-worker-framework/docs/notifications.md).
  // Events an agent subscribes to, sent with emit(env, …): events({ types }) of
  // 'mcp-worker-framework/events', `export class McpEvents extends worker.McpEvents {}` below, and
  // the MCP_EVENTS block (node_modules/mcp-worker-framework/docs/events.md). Each class is there
  // only while its extension is listed. Agent Skills, one folder each in skills/
  // (node_modules/mcp-worker-framework/docs/skills.md): built into skills/index.ts; none, nothing served.
  extensions: [apps(), ...skills],
});

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
