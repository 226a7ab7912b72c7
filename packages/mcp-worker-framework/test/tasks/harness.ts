/**
 * The Tasks fixture (test/tasks/wrangler.toml) in workerd through the test kit, and the kit's
 * requests to it (`request`, `rpc`, `waitFor`: one client per endpoint and caller) as alice unless
 * the call names another principal, with or without the Tasks extension declared.
 */
import * as kit from '../../src/testing';
import { startInWorkerd, type TaskCall, type WorkerInWorkerd } from '../../src/testing';

export { readEvents, TASKS, type TaskCall, type TaskReply } from '../../src/testing';

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

/** The caller of a call that names none: alice (the fixture takes the token for the principal's name). */
const asAlice = <Call extends TaskCall>(call: Call): Call => ({ ...call, as: call.as ?? 'alice' });

/** The kit's `request` as `call.as` (default alice): the HTTP answer as it is; its JSON-RPC id is 1. */
export const request = (url: string, method: string, params: Record<string, unknown>, call: TaskCall = {}) =>
  kit.request(url, method, params, asAlice(call));

/** The kit's `rpc` as `call.as` (default alice): the status, and the result or the error. */
export const rpc = (url: string, method: string, params: Record<string, unknown>, call: TaskCall = {}) =>
  kit.rpc(url, method, params, asAlice(call));

/** The kit's `waitFor` as `call.as` (default alice). */
export const waitFor = (url: string, taskId: string, statuses: string[], call: TaskCall & { everyMs?: number } = {}) =>
  kit.waitFor(url, taskId, statuses, asAlice(call));
