/**
 * The notifications fixture Worker (test/notifications/wrangler.toml): the server of
 * ./definition.ts with notifications on, its hub in two shards, behind JWT auth whose "tokens"
 * are `name`, `name;scopes` or `name;scopes;exp` (a fixture jwt mode, so tests can be callers
 * with and without a scope, or with a token that expires). Two routes reach into the hub the way
 * the platform would: `POST /hub/restart` resets every shard (a deploy, a crash: their sockets
 * drop), `POST /hub/refuse?shard=N` makes a shard refuse what it is sent and every listener, as one out of reach;
 * `GET /hub/instance?shard=N` names the shard's current instance (a new one after an eviction).
 */
import { jwt } from '../../src/auth';
import { createWorker } from '../../src/createWorker';
import type { AuthMode } from '../../src/http/auth/auth';
import { notifications } from '../../src/notifications';
import { definition, SHARDS } from './definition';
import type { WorkerEnv } from '../../src/env';

const principalFromToken: AuthMode = {
  ...jwt,
  verify: (token) => {
    const [subject = '', scopes = '', exp] = token.split(';');
    return {
      subject,
      kind: 'person',
      scopes: scopes.split(' ').filter(Boolean),
      claims: { name: subject, ...(exp ? { exp: Number(exp) } : {}) },
      ...(exp ? { expiresAt: Number(exp) * 1000 } : {}),
    };
  },
};

const worker = createWorker(definition, {
  auth: [principalFromToken],
  extensions: [notifications({ shards: SHARDS })],
});

/** The hub, with what a test needs to play the platform: a reset, and a shard out of reach (kept in its storage, so it outlives hibernation). */
export class McpNotifications extends worker.McpNotifications {
  /** Made anew each time the runtime makes the object (after hibernation too): a test sees that it was evicted. */
  private readonly instance = crypto.randomUUID();
  instanceId(): string {
    return this.instance;
  }
  restart(): void {
    this.ctx.abort('the test restarts the hub');
  }
  refuse(): void {
    this.ctx.storage.kv.put('refuse', true);
  }
  override deliver(topics: readonly string[]): number {
    if (this.ctx.storage.kv.get('refuse')) throw new Error('this shard is out of reach');
    return super.deliver(topics);
  }
  override async fetch(request: Request): Promise<Response> {
    if (this.ctx.storage.kv.get('refuse')) return new Response('out of reach', { status: 503 });
    return super.fetch(request);
  }
}

const hub = (env: WorkerEnv) => (env as unknown as { MCP_NOTIFICATIONS: DurableObjectNamespace }).MCP_NOTIFICATIONS;
/** A shard's stub, as RPC sees the class above. */
const shard = (env: WorkerEnv, index: number) =>
  hub(env).get(hub(env).idFromName(`shard:${index}`)) as unknown as {
    instanceId(): Promise<string>;
    restart(): Promise<void>;
    refuse(): Promise<void>;
  };

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/hub/restart') {
      for (let index = 0; index < SHARDS; index++)
        await shard(env, index)
          .restart()
          .catch(() => {});
      return new Response(null, { status: 204 });
    }
    if (url.pathname === '/hub/instance')
      return new Response(await shard(env, Number(url.searchParams.get('shard'))).instanceId());
    if (request.method === 'POST' && url.pathname === '/hub/refuse') {
      await shard(env, Number(url.searchParams.get('shard'))).refuse();
      return new Response(null, { status: 204 });
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<WorkerEnv>;
