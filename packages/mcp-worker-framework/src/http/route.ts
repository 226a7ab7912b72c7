/**
 * What a fork adds to the Worker without editing the framework (createWorker's `page`, `steps`
 * and `routes`, docs/http-pipeline.md): each is a plain function of the request, `env` and `ctx`,
 * as a Worker's own `fetch` is, turned here into a step of the pipeline (`./router.ts`).
 */
import { Router } from 'itty-router';
import type { Caller, CompiledServer, WorkerEnv } from '../mcp/internal.js';
import type { HttpContext, Step } from './context.js';
import { decodeHeaderValue } from './transport/headers.js';
import type { Settings } from './settings/settings.js';

/** What a route of the fork answers with, as a Worker's `fetch` does. */
export type Handler = (request: Request, env: WorkerEnv, ctx: ExecutionContext) => Response | Promise<Response>;

/** What the framework hands a page besides the request: the server it serves and this deployment's settings (`homePage` reads them). */
export interface PageContext {
  readonly server: CompiledServer;
  readonly settings: Settings;
}

/** The page at `/`: `homePage` (`./discovery/homePage.ts`), or the fork's own; a fork's page may ignore `context`. */
export type Page = (
  request: Request,
  env: WorkerEnv,
  ctx: ExecutionContext,
  context: PageContext,
) => Response | Promise<Response>;

/**
 * A step of the fork's own in every request to the MCP endpoint: a `Response` answers it,
 * `undefined` goes on to MCP. It runs after the edge's checks (origin, host, the address limit,
 * the token) and before the body is read, and sees what the edge knows by then (`StepContext`).
 */
export type WorkerStep = (
  request: Request,
  env: WorkerEnv,
  ctx: ExecutionContext,
  context: StepContext,
) => Response | undefined | Promise<Response | undefined>;

/** What the edge knows of an MCP request when a fork's step runs (in the spirit of Hono's typed context). */
export interface StepContext {
  /** Who is calling, as the auth mode verified it; undefined when the Worker serves no auth mode (anonymous). */
  readonly caller: Caller | undefined;
  /**
   * The method the request declares in `Mcp-Method` (e.g. `tools/call`), which the edge then holds
   * the body to (-32020 when they differ): a request that is served is this method. Undefined for
   * a client of the `initialize` era, which sends no such header: a step that decides by method
   * refuses what it cannot see.
   */
  readonly method: string | undefined;
  /** The tool or prompt name, or the resource URI, the request declares in `Mcp-Name` (decoded), held to the body the same way. */
  readonly name: string | undefined;
}

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** A route of the fork's own (a webhook), made by `route`. */
export interface Route {
  readonly method: Method;
  readonly path: string;
  readonly handler: Handler;
}

/** `route('POST', '/webhooks/tickets', handler)`: a path of the fork's own, behind the same origin and host checks as every route. */
export const route = (method: Method, path: string, handler: Handler): Route => ({ method, path, handler });

/** A fork's page or route as a step of the pipeline: it sees what any Worker's `fetch` sees (a page, also what it serves). */
export const forkStep =
  (serve: Page | Handler): Step =>
  (context: HttpContext) =>
    serve(context.request, context.env, context.ctx, context);

/**
 * A fork's route that could never be reached is refused at load, naming it and the framework's
 * path it would hide behind (the first route that matches answers, and the framework's come first).
 * Paths are compared as the router matches them: itty-router folds runs of slashes and trailing
 * slashes away, so `/mcp/`, `/mcp//` and `//mcp` are all `/mcp`. A route with a parameter or a
 * wildcard (`/:name`, `/*`) serves other paths too, so only its exact spelling counts.
 */
export function checkRoutes(routes: readonly Route[], taken: readonly string[]): void {
  for (const { method, path } of routes) {
    const pattern = /[:*]/.test(path) ? undefined : Router().all(path).routes[0]?.[1];
    const hidden = taken.find((framework) => framework === path || pattern?.test(framework));
    if (hidden === undefined) continue;
    const spelling = hidden === path ? '' : ` (the router reads ${path} as ${hidden})`;
    throw new Error(`route ${method} ${path}: the framework serves ${hidden}${spelling} (for /, set \`page: false\`)`);
  }
}

/** A fork's step as a step of the pipeline: what any Worker's `fetch` sees, and what the edge knows (`StepContext`). */
export const workerStep =
  (step: WorkerStep): Step =>
  (context: HttpContext) =>
    step(context.request, context.env, context.ctx, stepContext(context));

function stepContext({ caller, request }: HttpContext): StepContext {
  const name = request.headers.get('Mcp-Name');
  return {
    caller,
    method: request.headers.get('Mcp-Method') ?? undefined,
    name: name === null ? undefined : decodeHeaderValue(name),
  };
}
