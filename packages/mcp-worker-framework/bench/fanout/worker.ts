/**
 * The fan-out benchmark's Worker (bench/fanout.mjs): notifications on with the default hub (8
 * shards), one resource to subscribe to, JWT auth whose "token" is the listener's principal (so
 * each listener is its own client, with its own share of the listen streams), and
 * `POST /notify`, a webhook that notifies the resource's listeners.
 */
import { jwt } from '../../src/auth';
import { createWorker } from '../../src/createWorker';
import type { WorkerEnv } from '../../src/env';
import type { AuthMode } from '../../src/http/auth/auth';
import { defineResource } from '../../src/mcp';
import { notifications, notify } from '../../src/notifications';

const DOC = 'bench://doc';
const principalFromToken: AuthMode = { ...jwt, verify: (token) => ({ subject: token, scopes: [], claims: {} }) };

const worker = createWorker(
  {
    info: { name: 'fanout-bench', version: '1.0.0' },
    resources: [defineResource({ uri: DOC, name: 'doc', read: () => ({ contents: [{ uri: DOC, text: 'doc' }] }) })],
  },
  { auth: [principalFromToken], extensions: [notifications()] },
);

export class McpNotifications extends worker.McpNotifications {}

export default {
  async fetch(request, env, ctx) {
    if (request.method === 'POST' && new URL(request.url).pathname === '/notify') {
      await notify(env, { resourceUpdated: DOC });
      return new Response(null, { status: 202 });
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<WorkerEnv>;
