/**
 * The template with a task tool (docs/tasks.md): the server of src/server.ts plus
 * `compile_report`, whose calls run in their own Durable Object. wrangler.tasks.toml serves it:
 *
 *   npx wrangler dev -c wrangler.tasks.toml       serves http://localhost:8787/mcp
 *   npx wrangler deploy -c wrangler.tasks.toml
 */
import { verifyJwt } from './http/jwt';
import { createRouter } from './http/router';
import { createServer } from './mcp';
import { serverDefinition } from './server';
import { durableTasks, taskObject } from './tasks';
import { compileReport } from './tools/compile-report';

const server = createServer({ ...serverDefinition, tools: [...(serverDefinition.tools ?? []), compileReport], extensions: [durableTasks()] });

/** One object per task: the class wrangler.tasks.toml binds as MCP_TASKS. */
export const McpTask = taskObject(server);

const router = createRouter(server, { verifyJwt });

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
