/**
 * The events fixture Worker (./wrangler.toml): the server of ./definition.ts with events on, short
 * retries and small bounds so a test sees each, behind JWT auth whose "tokens" are `name` or
 * `name;scopes` (a fixture jwt mode). A route of its own takes the upstream's webhook and emits,
 * as docs/events.md shows.
 */
import { jwt } from '../../src/auth';
import { createWorker } from '../../src/createWorker';
import type { WorkerEnv } from '../../src/env';
import { emit, events } from '../../src/events';
import type { AuthMode } from '../../src/http/auth/auth';
import { definition, types } from './definition';
import { LIMITS } from './limits';

const principalFromToken: AuthMode = {
  ...jwt,
  verify: (token) => {
    const [subject = '', scopes = ''] = token.split(';');
    return { subject, kind: 'person', scopes: scopes.split(' ').filter(Boolean), claims: { name: subject } };
  },
};

const worker = createWorker(definition, {
  auth: [principalFromToken],
  extensions: [events({ types, limits: LIMITS })],
});

export class McpEvents extends worker.McpEvents {}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/upstream/incident') {
      const incident = (await request.json().catch(() => undefined)) as { id?: string; severity?: string } | undefined;
      if (typeof incident?.id !== 'string' || typeof incident.severity !== 'string')
        return new Response('expected {"id", "severity"}', { status: 400 });
      try {
        await emit(env, {
          name: 'incident.created',
          eventId: incident.id,
          data: { incidentId: incident.id, severity: incident.severity },
        });
      } catch (error) {
        return new Response(String((error as Error).message), { status: error instanceof TypeError ? 400 : 503 });
      }
      return new Response(null, { status: 202 });
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<WorkerEnv>;
