/**
 * The tasks configuration (docs/tasks.md): the server of src/server.ts with the Tasks extension
 * on, so its task tools (`task: 'optional' | 'required'`) run in a Durable Object each for
 * clients that declare the extension. wrangler.tasks.toml serves it; it is wrangler.toml plus the
 * Durable Object's blocks, so turning tasks on is serving that file instead:
 *
 *   npx wrangler dev -c wrangler.tasks.toml       serves http://localhost:8787/mcp
 *   npx wrangler deploy -c wrangler.tasks.toml    (or rename it to wrangler.toml)
 */
import { verifyJwt } from './http/jwt';
import { createRouter } from './http/router';
import { createServer } from './mcp';
import { serverDefinition } from './server';
import { durableTasks, taskObject } from './tasks';

const server = createServer({ ...serverDefinition, extensions: [...(serverDefinition.extensions ?? []), durableTasks()] });

/** One object per task: the class wrangler.tasks.toml binds as MCP_TASKS (a class, so `wrangler types` can name it). */
export class McpTask extends taskObject(server) {}

const router = createRouter(server, { verifyJwt });

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
