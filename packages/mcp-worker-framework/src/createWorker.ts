/**
 * `createWorker(definition, { auth, extensions, page, steps, routes })`: the Worker, composed in code (src/index.ts).
 * The definition is compiled here, once per isolate, with the extensions turned on; the HTTP edge
 * (`./http/router.ts`) serves it with the auth modes listed. A feature that is left out is
 * not in the bundle: its code is imported only by the line that turns it on.
 */
import { UI_FIELD } from './apps/toolFields.js';
import type { AuthMode } from './http/auth/auth.js';
import { createRouter, type ForkOptions } from './http/router.js';
import { createServer, type ServerDefinition } from './mcp/index.js';
import type { AnyTool, Extension, ExtensionObject, ToolField, WorkerExtension } from './mcp/internal.js';
import { type SettingError, tableOf } from './http/settings/settings.js';
import type { SettingRows } from './http/settings/settingsTable.js';
import { TASK_FIELD } from './tasks/toolFields.js';
import type { WorkerEnv } from './env.js';

export type { DurableObjectClass, WorkerExtension } from './mcp/internal.js';

export interface WorkerOptions<Extensions extends readonly WorkerExtension[] = readonly WorkerExtension[]>
  extends ForkOptions {
  /** The AUTH_MODE values it may serve besides "none", e.g. `[bearer, jwt, access, introspect]` (src/auth), `signIn()` (src/signin). */
  auth?: readonly AuthMode[];
  /** The one list of extensions turned on: `apps()`, `tasks()`, `notifications()`, the skills of skills/ (`...skills`). */
  extensions?: Extensions;
}

/** The Durable Object classes of the extensions listed, by name: `McpTask` only with tasks(), `McpNotifications` only with notifications(). */
type DurableObjectsOf<Extensions extends readonly WorkerExtension[]> = {
  readonly [E in Extensions[number] as E extends { durableObject: ExtensionObject<infer Name> }
    ? Name
    : never]: E extends {
    durableObject: { make(...args: never[]): infer Class };
  }
    ? Class
    : never;
};

/** The Worker: its `fetch`, and the class of each Durable Object its extensions run in, for src/index.ts to export. */
type Worker<Extensions extends readonly WorkerExtension[]> = {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response>;
} & DurableObjectsOf<Extensions>;

/**
 * What `npm run check` reads of a Worker besides its answers: what it is composed of, as it reads
 * it. It rides on the Worker's `fetch` under `COMPOSITION`, so `export default { fetch: worker.fetch }`
 * carries it; no request reads it. The check works out the rest in Node (scripts/workerFacts.mjs),
 * so the deployed Worker carries none of that.
 */
export interface Composition {
  /** The auth modes `auth` lists. */
  readonly auth: readonly AuthMode[];
  /** The extensions turned on, an auth mode's own included. */
  readonly extensions: readonly WorkerExtension[];
  /** Every setting it reads, by name: the core's rows and its modes'. */
  readonly settings: SettingRows;
  /** Why it would refuse every request with `env` (a setting, or a binding its mode needs), read afresh and not logged. */
  refusal(env: Readonly<Record<string, unknown>>): SettingError | undefined;
}

export const COMPOSITION = Symbol.for('mcp-worker-framework/composition');

export function createWorker<const Extensions extends readonly WorkerExtension[] = []>(
  definition: ServerDefinition,
  options: WorkerOptions<Extensions> = {},
): Worker<Extensions> {
  const auth = options.auth ?? [];
  const tools = [...(definition.tools ?? []), ...auth.flatMap((mode) => mode.tools ?? [])];
  // The extensions listed, and an auth mode's own (sign-in's enterprise sign-in), advertised beside them.
  const extensions: readonly WorkerExtension[] = [
    ...(options.extensions ?? []),
    ...auth.flatMap((mode) => mode.extensions ?? []),
  ];
  checkFeatures(tools, extensions);
  const server = createServer({ ...definition, tools }, extensions);
  const router = createRouter(server, auth, options);
  const fetch = (request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> =>
    router.fetch(request, env, ctx);
  Object.defineProperty(fetch, COMPOSITION, {
    get: (): Composition => ({ auth, extensions, settings: tableOf(auth), refusal: router.refusal }),
  });
  const worker: Record<string, unknown> = { fetch };
  for (const { durableObject } of extensions)
    if (durableObject) worker[durableObject.name] = durableObject.make(server);
  return worker as Worker<Extensions>;
}

/**
 * The tool fields of the framework's extensions, each declared by its extension (`toolFields.ts`):
 * known here even when the extension is off, to say which line of src/index.ts turns it on.
 */
const EXTENSION_FIELDS: readonly ToolField[] = [TASK_FIELD, UI_FIELD];

/**
 * A tool that needs an extension this Worker does not turn on could never be served as written,
 * so the Worker stops at load with the field's own message: a tool that runs only as a task, a
 * tool with a view (MCP Apps). A field counts as served when a listed extension declares it
 * (`toolField`), whatever its id. The core knows none of these fields.
 */
function checkFeatures(tools: readonly AnyTool[], extensions: readonly Extension[]): void {
  const served = new Set(extensions.map((extension) => extension.toolField?.name));
  for (const field of EXTENSION_FIELDS) {
    if (served.has(field.name)) continue;
    for (const tool of tools) {
      const missing = field.missing(tool);
      if (missing) throw new Error(`tool "${tool.name}" ${missing}`);
    }
  }
}
