/**
 * The Tasks fixture Worker: task tools behind JWT auth whose "tokens" are principal names
 * (a fixture jwt mode, so tests can be two callers), and a second server on `?short-lived`
 * whose tasks expire after 1.5 s. Both share one Durable Object class. `GET /object-calls`
 * says how many times the Worker has addressed a task object, so a test can see that a
 * request touched none; `GET /handler-runs?key=` how many times the handlers counting under that
 * key have run (./tools.ts), in a task object or not; `GET /object-as?taskId=&principal=` what the
 * task's object itself answers another principal (get, update, cancel, watch), behind no task-id check.
 */
import { jwt } from '../../src/auth';
import type { AuthMode } from '../../src/http/auth/auth';
import { createRouter } from '../../src/http/router';
import { createServer } from '../../src/mcp';
import { durableTasks, taskObject } from '../../src/tasks';
import { fixtureTaskTools, handlerRuns, SHORT_TTL_MS } from './tools';
import type { WorkerEnv } from '../../src/env';

const definition = { info: { name: 'tasks-fixture', version: '1.0.0' }, tools: fixtureTaskTools };
const server = createServer(definition, [durableTasks({ pollIntervalMs: 50 })]);
const shortLived = createServer(
  {
    ...definition,
  },
  [durableTasks({ pollIntervalMs: 50, ttlMs: SHORT_TTL_MS })],
);

/** One object per task, whichever server created it (the TTL travels with the task). */
export class McpTask extends taskObject(server) {}

/** The token is the principal's name; its scope and claims say so too, so a test sees what a task's handler gets. */
const principalFromToken: AuthMode = {
  ...jwt,
  verify: (token) => ({ subject: token, kind: 'person', scopes: ['tasks:run'], claims: { name: token } }),
};
const router = createRouter(server, [principalFromToken]);
const shortRouter = createRouter(shortLived, [principalFromToken]);

let objectCalls = 0;
const counted = new WeakMap<WorkerEnv, WorkerEnv>();

/** The same env, its task namespace counting every object the Worker asks for. */
function counting(env: WorkerEnv): WorkerEnv {
  let wrapped = counted.get(env);
  if (!wrapped) {
    const namespace = (env as unknown as { MCP_TASKS: DurableObjectNamespace }).MCP_TASKS;
    const countingNamespace = {
      idFromName: (name: string) => namespace.idFromName(name),
      get: (id: DurableObjectId) => (objectCalls++, namespace.get(id)),
    };
    wrapped = Object.create(env, { MCP_TASKS: { value: countingNamespace } }) as WorkerEnv;
    counted.set(env, wrapped);
  }
  return wrapped;
}

export default {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/object-calls') return Response.json({ objectCalls });
    if (url.pathname === '/handler-runs')
      return Response.json({ runs: handlerRuns.get(url.searchParams.get('key') ?? '') ?? 0 });
    if (url.pathname === '/object-as') return objectAs(env, url.searchParams);
    return (url.searchParams.has('short-lived') ? shortRouter : router).fetch(request, counting(env), ctx);
  },
} satisfies ExportedHandler<WorkerEnv>;

/** What the task's object answers `principal` on each of its methods, asked directly (the Worker's task-id check is not in the way). */
async function objectAs(env: WorkerEnv, params: URLSearchParams): Promise<Response> {
  const namespace = (env as unknown as { MCP_TASKS: DurableObjectNamespace }).MCP_TASKS;
  const task = namespace.get(namespace.idFromName(params.get('taskId') ?? '')) as unknown as {
    get(principal: string | null): Promise<unknown>;
    update(principal: string | null, responses: Record<string, unknown>): Promise<unknown>;
    cancel(principal: string | null): Promise<boolean>;
    watch(principal: string | null): Promise<ReadableStream | undefined>;
  };
  const principal = params.get('principal');
  const watched = await task.watch(principal);
  await watched?.cancel();
  return Response.json({
    get: (await task.get(principal)) ?? null,
    update: await task.update(principal, {}),
    cancel: await task.cancel(principal),
    watch: watched !== undefined,
  });
}
