/**
 * The Tasks fixture (test/tasks/wrangler.toml) in workerd through the test kit, and requests to a
 * Worker with task tools as a given principal, with or without the Tasks extension declared.
 */
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import * as kit from '../../src/testing/tasks';
import type { TaskCall } from '../../src/testing/tasks';

export { readEvents, TASKS, type TaskCall, type TaskReply } from '../../src/testing/tasks';

/** The settings the Tasks fixture runs under: JWT auth (its verifier takes the token for the principal's name). */
const SETTINGS = {
  AUTH_MODE: 'jwt',
  AUTH_ISSUER: 'https://issuer.invalid',
  AUTH_RESOURCE: 'https://tasks.example.com/mcp',
};

export interface Fixture {
  worker: WorkerInWorkerd;
  /** Its MCP endpoint on loopback. */
  url: string;
}

/** Starts the Tasks fixture; `vars` add to or replace its settings. */
export async function startFixture(vars: Record<string, string> = {}): Promise<Fixture> {
  const worker = await startInWorkerd({
    config: 'test/tasks/wrangler.toml',
    vars: { ...SETTINGS, ...vars },
    secrets: { MCP_STATE_SECRET: 'tasks fixture secret' },
  });
  return { worker, url: `${worker.url}/mcp` };
}

/** The kit's task requests (src/testing/tasks.ts) as `call.as`, default alice (the fixture's token is the principal's name). */
const asAlice = <C extends TaskCall>(call: C): C => ({ as: 'alice', ...call });

export const request = (url: string, method: string, params: Record<string, unknown>, call: TaskCall = {}) =>
  kit.request(url, method, params, asAlice(call));

export const rpc = (url: string, method: string, params: Record<string, unknown>, call: TaskCall = {}) =>
  kit.rpc(url, method, params, asAlice(call));

export const waitFor = (url: string, taskId: string, statuses: string[], call: TaskCall & { everyMs?: number } = {}) =>
  kit.waitFor(url, taskId, statuses, asAlice(call));
