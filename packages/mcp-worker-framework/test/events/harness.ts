/**
 * The events fixture (./wrangler.toml) in workerd through the test kit, with loopback callbacks
 * allowed (EVENTS_LOOPBACK_CALLBACKS, the local-development setting), and a caller's requests.
 */
import { afterAll, beforeAll } from 'vitest';
import { rpc, startInWorkerd, type TaskReply, type WorkerInWorkerd } from '../../src/testing';
import { type Receiver, startReceiver } from './receiver';

/** JWT auth, whose verifier takes the token for the caller (./worker.ts). */
export const SETTINGS = {
  AUTH_MODE: 'jwt',
  AUTH_ISSUER: 'https://issuer.invalid',
  AUTH_RESOURCE: 'https://events.example.com/mcp',
  EVENTS_LOOPBACK_CALLBACKS: 'on',
};

/** The fixture in workerd, and its MCP endpoint on loopback. */
export type Fixture = WorkerInWorkerd & { mcp: string };

export async function startFixture(vars: Record<string, string> = {}, withEmitter = false): Promise<Fixture> {
  const worker = await startInWorkerd({
    config: 'test/events/wrangler.toml',
    vars: { ...SETTINGS, ...vars },
    secrets: { MCP_STATE_SECRET: 'events fixture secret' },
    ...(withEmitter ? { neighbours: [{ config: 'test/events/emitter.wrangler.toml' }] } : {}),
  });
  return Object.assign(worker, { mcp: `${worker.url}/mcp` });
}

/**
 * For a file of webhook tests: starts the fixture and a loopback receiver before its tests, hands
 * both to `use`, and stops both after them.
 */
export function withReceiver(use: (started: { worker: Fixture; receiver: Receiver }) => void): void {
  let worker: Fixture | undefined;
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    [worker, receiver] = await Promise.all([startFixture(), startReceiver()]);
    use({ worker, receiver });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([worker?.dispose(), receiver?.close()]);
  });
}

/** A 2026-07-28 request as the caller whose token is `as`. */
export const call = (url: string, as: string, method: string, params: Record<string, unknown>): Promise<TaskReply> =>
  rpc(url, method, params, { as, tasks: false });

/** Waits until `done()` holds, checking every 25 ms (bounded: 15 s, then throws with `what`). */
export async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The storage of a principal's object (src/events/subscriptionKey.ts names it by the subject's SHA-256). */
export async function principalStorage(worker: WorkerInWorkerd, subject: string) {
  const { createHash } = await import('node:crypto');
  const name = `principal:${createHash('sha256').update(subject).digest('hex').slice(0, 40)}`;
  return worker.getDurableObjectStorage('MCP_EVENTS', { name });
}

/** How many deliveries a principal's object still holds (0: nothing more will be sent). */
export async function pending(worker: WorkerInWorkerd, subject: string): Promise<number> {
  const storage = await principalStorage(worker, subject);
  const [row] = await storage.exec<{ n: number }>('SELECT count(*) AS n FROM deliveries');
  return row?.n ?? 0;
}

/** Waits until the principal's object holds no delivery (bounded: 15 s). */
export async function settled(worker: WorkerInWorkerd, subject: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await pending(worker, subject)) > 0) {
    if (Date.now() > deadline) throw new Error(`deliveries of ${subject} never settled`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
