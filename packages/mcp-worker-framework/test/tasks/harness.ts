/**
 * The Tasks fixture (test/tasks/wrangler.toml) in workerd through the test kit, and requests to a
 * Worker with task tools as a given principal, with or without the Tasks extension declared.
 */
import { atUrl, type Message, startInWorkerd, testClient, type WorkerInWorkerd } from '../../src/testing';

export { readEvents, TASKS } from '../../src/testing';

/** How a test calls the fixture: as whom, declaring the Tasks extension or not, with what else. */
export interface TaskCall {
  /** The caller: sent as `Authorization: Bearer <as>`, which the fixture takes for its principal (default alice). */
  as?: string;
  /** Declares the Tasks extension on this request (default true). */
  tasks?: boolean;
  capabilities?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Query string of the endpoint, e.g. `short-lived`. */
  query?: string;
}

/** An answer read as the test expects it: the HTTP status, and the result or the error (never thrown, so a test can check it). */
export interface TaskReply {
  status: number;
  result?: Record<string, any>;
  error?: NonNullable<Message['error']>;
}

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

/** One request through the kit's client as `call.as` (default alice), its HTTP answer as it is; its JSON-RPC id is 1. */
export function request(url: string, method: string, params: Record<string, unknown>, call: TaskCall = {}) {
  const mcp = testClient(atUrl(call.query ? `${url}?${call.query}` : url), {
    headers: { Authorization: `Bearer ${call.as ?? 'alice'}`, ...call.headers },
    ...(call.tasks === false ? {} : { tasks: true }),
  });
  return mcp.send(method, params, { id: 1, ...(call.capabilities ? { capabilities: call.capabilities } : {}) });
}

/** `request`, its JSON answer read. */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  call: TaskCall = {},
): Promise<TaskReply> {
  const response = await request(url, method, params, call);
  const { result, error } = (await response.json()) as Message;
  return { status: response.status, ...(result ? { result } : {}), ...(error ? { error } : {}) };
}

/** The kit's `tasks.waitFor`, as `call.as` (default alice). */
export const waitFor = (url: string, taskId: string, statuses: string[], call: TaskCall & { everyMs?: number } = {}) =>
  testClient(atUrl(url), { headers: { Authorization: `Bearer ${call.as ?? 'alice'}` } }).tasks.waitFor(
    taskId,
    statuses,
    call.everyMs === undefined ? {} : { everyMs: call.everyMs },
  );
