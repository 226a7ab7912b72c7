/**
 * `createWorker(definition, { auth, extensions })`: the Worker, composed in code (src/index.ts).
 * The definition is compiled here, once per isolate, with the extensions turned on; the HTTP edge
 * (`./http/router.ts`) serves it with the auth modes listed. A feature that is left out is
 * not in the bundle: its code is imported only by the line that turns it on.
 */
import type { DurableObject } from 'cloudflare:workers';
import type { AuthMode } from './http/auth';
import { createRouter } from './http/router';
import { createServer, type CompiledServer, type ServerDefinition } from './mcp';
import type { Extension } from './mcp/internal';

/** A Durable Object class, as src/index.ts exports it. */
export type DurableObjectClass = new (ctx: DurableObjectState, env: Env) => DurableObject<Env>;

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
  const extensions = options.extensions ?? [];
  const server = createServer({
    ...definition,
    tools: [...(definition.tools ?? []), ...auth.flatMap((mode) => mode.tools ?? [])],
    extensions: [...(definition.extensions ?? []), ...extensions],
  });
  const router = createRouter(server, auth);
  const withObject = extensions.find((extension) => extension.durableObject);
  return {
    fetch: (request: Request, env: Env, ctx: ExecutionContext): Promise<Response> => router.fetch(request, env, ctx),
    /** The Durable Object class of the extension that has one (tasks), for src/index.ts to export as `McpTask`. */
    McpTask: withObject?.durableObject?.(server) ?? (TasksOff as unknown as DurableObjectClass),
  };
}
