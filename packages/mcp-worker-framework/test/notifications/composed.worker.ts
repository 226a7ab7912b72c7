/**
 * src/index.ts with notifications and tasks on together, and a route of the fork's own (the
 * shape of docs/server-api.md, "Notifications from anywhere") that tells listeners the tool list
 * changed: each feature a line, and both Durable Object classes exported.
 */
import { bearer } from '../../src/auth';
import { createWorker } from '../../src/createWorker';
import { notifications, notify } from '../../src/notifications';
import { tasks } from '../../src/tasks';
import { withTaskTool } from '../fixtures/composed/server';
import type { WorkerEnv } from '../../src/env';

const worker = createWorker(withTaskTool, { auth: [bearer], extensions: [tasks(), notifications()] });

export class McpTask extends worker.McpTask {}
export class McpNotifications extends worker.McpNotifications {}

export default {
  async fetch(request, env, ctx) {
    if (request.method === 'POST' && new URL(request.url).pathname === '/webhooks/tools') {
      await notify(env, { listChanged: 'tools' });
      return new Response(null, { status: 202 });
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<WorkerEnv>;
