/**
 * The Tasks fixture Worker: task tools behind JWT auth whose "tokens" are principal names
 * (a fixture verifier, so tests can be two callers), and a second server on `?short-lived`
 * whose tasks expire after 1.5 s. Both share one Durable Object class.
 */
import type { JwtVerifier } from '../../src/http/auth';
import { createRouter } from '../../src/http/router';
import { createServer } from '../../src/mcp';
import { durableTasks, taskObject } from '../../src/tasks';
import { fixtureTaskTools, SHORT_TTL_MS } from './tools';

const definition = { info: { name: 'tasks-fixture', version: '1.0.0' }, tools: fixtureTaskTools };
const server = createServer({ ...definition, tasks: durableTasks({ pollIntervalMs: 50 }) });
const shortLived = createServer({ ...definition, tasks: durableTasks({ pollIntervalMs: 50, ttlMs: SHORT_TTL_MS }) });

/** One object per task, whichever server created it (the TTL travels with the task). */
export const McpTask = taskObject(server);

const principalFromToken: JwtVerifier = async (token) => ({ subject: token, scopes: [] });
const router = createRouter(server, { verifyJwt: principalFromToken });
const shortRouter = createRouter(shortLived, { verifyJwt: principalFromToken });

export default {
  fetch: (request, env, ctx) => (new URL(request.url).searchParams.has('short-lived') ? shortRouter : router).fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
