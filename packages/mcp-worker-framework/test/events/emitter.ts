/**
 * Another Worker, in an isolate of its own, that binds the fixture's `McpEvents` class by
 * `script_name` (./emitter.wrangler.toml) and emits what its upstream posts: the shape of the
 * route in docs/events.md, from a Worker that serves no MCP at all.
 */
import type { WorkerEnv } from '../../src/env';
import { emit } from '../../src/events/emit';

export default {
  async fetch(request, env) {
    if (request.method !== 'POST') return new Response('Not found', { status: 404 });
    const incident = (await request.json().catch(() => undefined)) as { id?: string; severity?: string } | undefined;
    if (typeof incident?.id !== 'string') return new Response('expected {"id", "severity"}', { status: 400 });
    try {
      await emit(env, {
        name: 'incident.created',
        eventId: incident.id,
        data: { incidentId: incident.id, severity: incident.severity ?? 'P3' },
      });
    } catch (error) {
      return new Response(String((error as Error).message), { status: error instanceof TypeError ? 400 : 503 });
    }
    return new Response(null, { status: 202 });
  },
} satisfies ExportedHandler<WorkerEnv>;
