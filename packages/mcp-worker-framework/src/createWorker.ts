/**
 * `createWorker(definition, { auth, extensions })`: the Worker, composed in code (src/index.ts).
 * The definition is compiled here, once per isolate, with the extensions turned on; the HTTP edge
 * (`./http/router.ts`) serves it with the auth modes listed. A feature that is left out is
 * not in the bundle: its code is imported only by the line that turns it on.
 */
import type { DurableObject } from 'cloudflare:workers';
import { APPS_EXTENSION } from './apps/toolFields';
import type { AuthMode } from './http/auth';
import { createRouter } from './http/router';
import { createServer, type CompiledServer, type ServerDefinition } from './mcp';
import type { AnyTool, Extension } from './mcp/internal';
import { TASKS_EXTENSION } from './tasks/toolFields';
import type { WorkerEnv } from './env';

/** A Durable Object class, as src/index.ts exports it. */
export type DurableObjectClass = new (ctx: DurableObjectState, env: WorkerEnv) => DurableObject<WorkerEnv>;

/** An extension the Worker turns on; one that runs in a Durable Object (tasks) brings its class. */
export interface WorkerExtension extends Extension {
  /** The Durable Object class it runs in, made from the compiled server: exported by src/index.ts as `McpTask`. */
  durableObject?(server: CompiledServer): DurableObjectClass;
}

export interface WorkerOptions {
  /** The AUTH_MODE values it may serve besides "none", e.g. `[bearer, jwt, access, introspect]` (src/auth), `signIn()` (src/signin). */
  auth?: readonly AuthMode[];
  /** Extensions turned on, e.g. `tasks()` (src/tasks, docs/tasks.md). */
  extensions?: readonly WorkerExtension[];
}

/** Stands in for the task object while tasks are off, so src/index.ts exports `McpTask` either way; nothing addresses it. */
class TasksOff {}

export function createWorker(definition: ServerDefinition, options: WorkerOptions = {}) {
  const auth = options.auth ?? [];
  const tools = [...(definition.tools ?? []), ...auth.flatMap((mode) => mode.tools ?? [])];
  const extensions = [...(definition.extensions ?? []), ...(options.extensions ?? [])];
  checkFeatures(tools, extensions);
  const server = createServer({ ...definition, tools, extensions });
  const router = createRouter(server, auth);
  const withObject = options.extensions?.find((extension) => extension.durableObject);
  return {
    fetch: (request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> =>
      router.fetch(request, env, ctx),
    /** The Durable Object class of the extension that has one (tasks), for src/index.ts to export as `McpTask`. */
    McpTask: withObject?.durableObject?.(server) ?? (TasksOff as unknown as DurableObjectClass),
  };
}

/**
 * A tool that needs an extension this Worker does not turn on could never be served as written,
 * so the Worker stops at load and says which line of src/index.ts turns it on: a tool that runs
 * only as a task (one that may run as a task is an ordinary call without tasks, docs/tasks.md),
 * a tool with a view, which MCP Apps serves (docs/apps.md). The core knows neither field.
 */
function checkFeatures(tools: readonly AnyTool[], extensions: readonly Extension[]): void {
  const on = (id: string) => extensions.some((extension) => extension.id === id);
  const taskOnly = tools.find((tool) => tool.task === 'required');
  if (taskOnly && !on(TASKS_EXTENSION))
    throw new Error(
      `tool "${taskOnly.name}" runs only as a task: turn tasks on: \`extensions: [tasks()]\` in src/index.ts (docs/tasks.md)`,
    );
  const withView = tools.find((tool) => tool.ui !== undefined);
  if (withView && !on(APPS_EXTENSION))
    throw new Error(
      `tool "${withView.name}" has a view (ui), which MCP Apps serves: turn it on: \`extensions: [apps()]\` in src/index.ts (docs/apps.md)`,
    );
}
