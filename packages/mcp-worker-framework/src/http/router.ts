/**
 * The HTTP edge: one itty-router `Router` whose routes, and every step of a request, are
 * named here in order. A request flows through `before` (every route), then its route's
 * steps, then `finally`; the first step that returns a `Response` ends the chain (itty's
 * rule), an exception goes to `catch`, and the `finally` steps see every answer, refusals
 * included. Each step is a small function in `./steps/`, named after what it does, taking
 * the request's one typed context (`./context.ts`); the steps after `readMessage` receive the
 * message it admitted, typed (`admittedSteps`).
 *
 * These lists are the one place the order is written. To add a step (an IP allowlist, another
 * auth mode, a header you require), write it in `./steps/` and put it in the list where it
 * belongs; docs/http-pipeline.md says what each step does.
 */
import { Router } from 'itty-router';
import { type CompiledServer, internalError, misconfigured } from '../mcp/internal.js';
import { protectedResourceMetadata, type AuthMode } from './auth/auth.js';
import { advertisedResource, METADATA_PATH } from './auth/challenges.js';
import { admittedSteps, HttpContext, type FinallyStep, type Step } from './context.js';
import { AI_CATALOG_PATH, aiCatalog, publicPreflight, SERVER_CARD_PATH, serverCard } from './discovery/discovery.js';
import { errorAnswer } from './transport/errorAnswer.js';
import { HOME_PATH, homePage } from './discovery/homePage.js';
import { REGISTRY_AUTH_PATH, registryAuth } from './discovery/registryAuth.js';
import { checkRoutes, forkStep, type Page, type Route, type WorkerStep, workerStep } from './route.js';
import { errorResponse } from './transport/responses.js';
import { readSettings, SettingError, type Settings, settingsReader } from './settings/settings.js';
import { answerBatch } from './steps/answerBatch.js';
import { checkHost } from './steps/checkHost.js';
import { checkToolPolicy } from './steps/checkToolPolicy.js';
import { cors } from './steps/cors.js';
import { limitByAddress } from './steps/limitByAddress.js';
import { limitByCaller } from './steps/limitByCaller.js';
import { readMessage } from './steps/readMessage.js';
import { requestSpan } from './steps/requestSpan.js';
import { serveMcp } from './steps/serveMcp.js';
import { verifyToken } from './steps/verifyToken.js';
import { writeRequestLog } from './steps/writeRequestLog.js';
import type { WorkerEnv } from '../mcp/internal.js';

const MCP_PATH = '/mcp';

/** What a fork adds (createWorker's options of the same names, `./route.ts`). */
export interface ForkOptions {
  /** The page at `/`: `homePage` by default, `false` for none (404, as any unknown path), or the fork's own. */
  page?: Page | false;
  /** The fork's own steps, in every request to the MCP endpoint, after the edge's checks, before MCP. */
  steps?: readonly WorkerStep[];
  /** The fork's own routes (a webhook), made with `route`; none may take a path the framework serves. */
  routes?: readonly Route[];
}

/** `auth`: the modes this Worker may serve besides "none" (`./auth/auth.ts`, `AuthMode`), each kept out of bundles that do not list it. */
export function createRouter(server: CompiledServer, auth: readonly AuthMode[] = [], fork: ForkOptions = {}) {
  const settingsFor = settingsReader(auth);
  const page = fork.page ?? homePage;
  const modeRoutes = auth.flatMap((mode) => mode.routes ?? []);
  const routes = fork.routes ?? [];
  // The paths the framework serves: the page's `/` only while it is on, a mode's routes only when listed.
  const taken = [
    MCP_PATH,
    METADATA_PATH,
    `${METADATA_PATH}${MCP_PATH}`,
    SERVER_CARD_PATH,
    AI_CATALOG_PATH,
    REGISTRY_AUTH_PATH,
  ];
  checkRoutes(routes, [...taken, ...(page ? [HOME_PATH] : []), ...modeRoutes.map(({ path }) => path)]);
  /** Before every route: who may call at all. */
  const before: Step[] = [cors.check, checkHost];

  /** One JSON-RPC message, from its body to its answer. */
  const perMessage: Step[] = [
    readMessage, // the body, as one validated JSON-RPC message and its _meta, admitted once by the core: one record
    ...admittedSteps(
      limitByCaller, // the limiter of the validated method, keyed by the principal
      checkToolPolicy, // the admitted tool's Mcp-Param-* headers
      serveMcp, // the protocol core serves what it admitted
    ),
  ];

  /** `POST /mcp`, in order: cheap refusals first, the core last. */
  const mcp: Step[] = [
    requestSpan.start, // one span per MCP request, refusals included
    limitByAddress, // before any token work: a flood of bad tokens costs nothing
    verifyToken,
    ...(fork.steps ?? []).map(workerStep), // the fork's own (createWorker's `steps`), once per HTTP request
    // A 2025-03-26 client's batch: each member through perMessage alone, with itty's rules, in a router
    // of its own (no span, limit or log line per member; a member that crashes reaches `crashed` below).
    answerBatch(Router<HttpContext, [], Response>().all('*', ...perMessage)),
    ...perMessage,
  ];

  /** After every answer, refusals and crashes included; none of them can replace it by throwing. */
  const after: FinallyStep[] = [cors.add, writeRequestLog, requestSpan.end];

  const router = Router<HttpContext, []>({ before, catch: crashed, finally: after.map(keepingTheAnswer) })
    .post(MCP_PATH, ...mcp)
    .options(MCP_PATH, cors.preflight)
    // spec 2026-07-28 streamable-http: no GET stream, no session to DELETE
    .all(MCP_PATH, methodNotAllowed)
    // RFC 9728, also at the path-suffixed location for the resource /mcp
    .get(METADATA_PATH, metadata)
    .get(`${METADATA_PATH}${MCP_PATH}`, metadata)
    // How the server is found (spec extensions/server-card): public, from any origin (discovery.ts)
    .get(SERVER_CARD_PATH, serverCard)
    .get(AI_CATALOG_PATH, aiCatalog)
    .options(SERVER_CARD_PATH, publicPreflight)
    .options(AI_CATALOG_PATH, publicPreflight)
    .all(SERVER_CARD_PATH, getOnly)
    .all(AI_CATALOG_PATH, getOnly)
    // The MCP Registry's proof that this domain's names are the publisher's (registryAuth.ts)
    .get(REGISTRY_AUTH_PATH, registryAuth)
    .all(REGISTRY_AUTH_PATH, getOnly);
  // A page for people (HTML), or a pointer to the endpoint for programs (homePage.ts); or the fork's, or none.
  if (page)
    router
      .get(HOME_PATH, forkStep(page))
      .all(HOME_PATH, () => new Response(null, { status: 405, headers: { Allow: 'GET' } }));
  // A mode's own routes (sign-in: its authorization server's), behind the same `before` steps, the address limit first.
  for (const { path, serve } of modeRoutes) router.all(path, limitByAddress, serve);
  // The fork's own routes (createWorker's `routes`), behind the same `before` steps.
  for (const { method, path, handler } of routes) router[method.toLowerCase()]!(path, forkStep(handler));
  router.all('*', notFound);

  return {
    fetch: (request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> => {
      const settings = servable(settingsFor(env), env);
      if (settings instanceof SettingError) return Promise.resolve(refuseToServe(settings));
      return router.fetch(new HttpContext(request, env, ctx, settings, server));
    },
    /** Why every request with `env` would be refused, or undefined, read afresh and not logged: what `npm run check` asks (`Composition`, src/createWorker.ts). */
    refusal: (env: Readonly<Record<string, unknown>>): SettingError | undefined => {
      const settings = servable(readSettings(env, auth), env as WorkerEnv);
      return settings instanceof SettingError ? settings : undefined;
    },
  };
}

/** The settings read, or why the Worker refuses to serve with them. */
function servable(settings: Settings | SettingError, env: WorkerEnv): Settings | SettingError {
  // Fail closed: a setting that cannot be read serves nothing, not a server with that setting off.
  if (settings instanceof SettingError) return settings;
  // What else the mode needs of the deployment (sign-in: its KV namespace).
  return settings.authMode?.problem?.(settings.auth, env) ?? settings;
}

/** 500 naming the setting that cannot be read and what it accepts; its value is logged, never sent. No context yet, so no challenge to give. */
function refuseToServe(problem: SettingError): Response {
  const error = misconfigured(problem.setting, problem.why);
  return errorResponse(null, error, errorAnswer(error, false, NO_CHALLENGE).status);
}
const NO_CHALLENGE = { challenge: () => ({ metadata: undefined, scopesToAsk: [] }) };

const methodNotAllowed = () => new Response(null, { status: 405, headers: { Allow: 'POST' } });
/** A public document answered nothing to its GET (none configured: 404), or was asked with another method (405). */
const getOnly = ({ method }: HttpContext) =>
  method === 'GET' ? notFound() : new Response(null, { status: 405, headers: { Allow: 'GET, OPTIONS' } });
const notFound = () => new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

function metadata(context: HttpContext): Response {
  // With no authorization server (AUTH_MODE none, a bearer secret, Cloudflare Access) there is no metadata to advertise.
  const resource = advertisedResource(context.settings.auth);
  return resource ? protectedResourceMetadata(resource) : notFound();
}

/**
 * A `finally` step that throws (a log line that cannot be written, a span the runtime refuses)
 * must not turn an answer already decided into a 500, nor skip the steps after it (itty-router
 * would hand the error to `catch`): its failure is logged and the answer goes out as it was.
 */
function keepingTheAnswer(step: FinallyStep): FinallyStep {
  return function keepingTheAnswer(response, context) {
    try {
      return step(response, context);
    } catch (error) {
      console.error(`finally step ${step.name} failed; the answer is kept`, error);
      return undefined;
    }
  };
}

/** Last resort: log it, answer -32603 without a stack trace. */
function crashed(error: unknown, context: HttpContext): Response {
  console.error('unhandled error', error);
  return context.fail(null, internalError());
}
