/**
 * The events delivery benchmark's Worker (bench/events.mjs): one event type with the default
 * limits (verifications per host raised: every subscription of the bench calls back to one
 * loopback host), JWT auth whose "token" is the subscriber's principal (one subscription each),
 * and `POST /emit`, a webhook that emits one event.
 */
import { jwt } from '../../src/auth';
import { createWorker } from '../../src/createWorker';
import type { WorkerEnv } from '../../src/env';
import { defineEventType, emit, events } from '../../src/events';
import type { AuthMode } from '../../src/http/auth';

const happened = defineEventType({
  name: 'bench.happened',
  description: 'Something happened',
  inputSchema: { type: 'object' },
  payloadSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
});

const principalFromToken: AuthMode = { ...jwt, verify: (token) => ({ subject: token, scopes: [], claims: {} }) };

const worker = createWorker(
  { info: { name: 'events-bench', version: '1.0.0' } },
  {
    auth: [principalFromToken],
    extensions: [events({ types: [happened], limits: { verificationsPerHostPerMinute: 100_000 } })],
  },
);

export class McpEvents extends worker.McpEvents {}

let n = 0;
export default {
  async fetch(request, env, ctx) {
    if (request.method === 'POST' && new URL(request.url).pathname === '/emit') {
      await emit(env, { name: 'bench.happened', data: { n: ++n } });
      return new Response(null, { status: 202 });
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<WorkerEnv>;
