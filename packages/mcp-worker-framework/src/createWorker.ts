/**
 * `createWorker(definition, { auth, extensions, page, steps, routes })`: the Worker, composed in code (src/index.ts).
 * The definition is compiled here, once per isolate, with the extensions turned on; the HTTP edge
 * (`./http/router.ts`) serves it with the auth modes listed. A feature that is left out is
 * not in the bundle: its code is imported only by the line that turns it on.
 */
import { APPS_EXTENSION } from './apps/toolFields';
import type { AuthMode } from './http/auth';
import { createRouter, type ForkOptions } from './http/router';
import { createServer, type ServerDefinition } from './mcp';
import type { AnyTool, Extension, ExtensionObject, WorkerExtension } from './mcp/internal';
import { TASKS_EXTENSION } from './tasks/toolFields';
import type { WorkerEnv } from './env';

export type { DurableObjectClass, ExtensionObject, WorkerExtension } from './mcp/internal';

export interface WorkerOptions<Extensions extends readonly WorkerExtension[] = readonly WorkerExtension[]>
  extends ForkOptions {
  /** The AUTH_MODE values it may serve besides "none", e.g. `[bearer, jwt, access, introspect]` (src/auth), `signIn()` (src/signin). */
  auth?: readonly AuthMode[];
  /** The one list of extensions turned on: `apps()`, `tasks()`, `notifications()`, the skills of skills/ (`...skills`). */
  extensions?: Extensions;
}

/** The Durable Object classes of the extensions listed, by name: `McpTask` only with tasks(), `McpNotifications` only with notifications(). */
export type DurableObjectsOf<Extensions extends readonly WorkerExtension[]> = {
  readonly [E in Extensions[number] as E extends { durableObject: ExtensionObject<infer Name> }
    ? Name
    : never]: E extends {
    durableObject: { make(...args: never[]): infer Class };
  }
    ? Class
    : never;
};

/** The Worker: its `fetch`, and the class of each Durable Object its extensions run in, for src/index.ts to export. */
export type Worker<Extensions extends readonly WorkerExtension[]> = {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response>;
} & DurableObjectsOf<Extensions>;

export function createWorker<const Extensions extends readonly WorkerExtension[] = []>(
  definition: ServerDefinition,
  options: WorkerOptions<Extensions> = {},
): Worker<Extensions> {
  const auth = options.auth ?? [];
  const tools = [...(definition.tools ?? []), ...auth.flatMap((mode) => mode.tools ?? [])];
  const extensions = options.extensions ?? [];
  checkFeatures(tools, extensions);
  const server = createServer({ ...definition, tools }, extensions);
  const router = createRouter(server, auth, options);
  const worker: Record<string, unknown> = {
    fetch: (request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> =>
      router.fetch(request, env, ctx),
  };
  for (const { durableObject } of extensions)
    if (durableObject) worker[durableObject.name] = durableObject.make(server);
  return worker as Worker<Extensions>;
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
