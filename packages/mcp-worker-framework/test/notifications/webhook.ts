/**
 * Another Worker, in an isolate of its own, that shares the fixture's hub: it binds the
 * fixture's `McpNotifications` class by `script_name` (./webhook.wrangler.toml) and turns a
 * webhook, as a system whose data changed would send it, into a notification: the shape of the
 * route in docs/server-api.md, "Notifications from anywhere".
 */
import { notify } from '../../src/notifications';
import type { WorkerEnv } from '../../src/env';

export default {
  async fetch(request, env) {
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/webhooks/docs')
      return new Response('Not found', { status: 404 });
    const event: unknown = await request.json().catch(() => undefined);
    const uri = (event as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== 'string') return new Response('expected {"uri": "..."}', { status: 400 });
    try {
      await notify(env, { resourceUpdated: uri });
    } catch (error) {
      console.error(error);
      return new Response('the change could not be delivered; send it again', { status: 503 });
    }
    return new Response(null, { status: 202 });
  },
} satisfies ExportedHandler<WorkerEnv>;
