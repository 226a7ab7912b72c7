/**
 * The notifications fixture (./wrangler.toml) in workerd through the test kit, with the webhook
 * Worker (./webhook.wrangler.toml) beside it in the same workerd, and the official SDK v2 client
 * listening as a given caller.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';

/** JWT auth, whose verifier takes the token for the caller (test/notifications/worker.ts). */
const SETTINGS = {
  AUTH_MODE: 'jwt',
  AUTH_ISSUER: 'https://issuer.invalid',
  AUTH_RESOURCE: 'https://notifications.example.com/mcp',
};

export interface Fixture {
  worker: WorkerInWorkerd;
  /** Its MCP endpoint on loopback. */
  url: string;
}

export async function startFixture(vars: Record<string, string> = {}): Promise<Fixture> {
  const worker = await startInWorkerd({
    config: 'test/notifications/wrangler.toml',
    vars: { ...SETTINGS, ...vars },
    secrets: { MCP_STATE_SECRET: 'notifications fixture secret' },
    neighbours: [{ config: 'test/notifications/webhook.wrangler.toml' }],
  });
  return { worker, url: `${worker.url}/mcp` };
}

/** The official client (2026-07-28), connected as the caller whose token is `token` (`name`, `name;scopes`, `name;scopes;exp`). */
export async function clientAs(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'notifications-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** Every notification `client` hears, by method, in order: `{ method, params }`. */
export function heard(client: Client): { method: string; params: Record<string, unknown> }[] {
  const messages: { method: string; params: Record<string, unknown> }[] = [];
  for (const method of [
    'notifications/resources/updated',
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
    'notifications/resources/list_changed',
  ] as const)
    client.setNotificationHandler(method, (notification) => {
      messages.push({ method, params: { ...(notification.params as Record<string, unknown> | undefined) } });
    });
  return messages;
}

/** Waits until `done()` holds, checking every 20 ms (bounded: 10 s, then throws with `what`). */
export async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
