/**
 * The tasks helpers of 1.0 (`request`, `rpc`, `waitFor` on a URL), kept for one
 * minor so a fork's tests keep running: each is now the one test client (`./testClient.ts`),
 * whose `tasks` methods replace them (docs/testing.md):
 *
 *   const mcp = testClient(atUrl(url), { headers: { Authorization: 'Bearer …' } });
 *   const { result: task } = await mcp.tasks.start('compile_report', { topic: 'tides' });
 *   const done = await mcp.tasks.waitFor(task.taskId, ['completed']);
 */
import { atUrl, type CallOptions, JsonRpcError, TASKS, type TestClient, testClient } from './testClient.js';

export { TASKS };

/** @deprecated A JSON object of an answer: the client's answers are typed by the spec's results. */
export type Json = Record<string, any>;

/** @deprecated The options of `testClient` and of its calls (`headers`, `capabilities`, `tasks`). */
export interface TaskCall {
  /** Sent as `Authorization: Bearer <as>`: the caller, for a Worker whose auth takes the token for its principal. */
  as?: string;
  /** Declares the Tasks extension on this request (default true). */
  tasks?: boolean;
  capabilities?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Query string of the endpoint, e.g. `short-lived`. */
  query?: string;
}

/** @deprecated What `rpc` answers: the client's answers throw a `JsonRpcError` instead. */
export interface TaskReply {
  status: number;
  result?: Json;
  error?: { code: number; message: string; data?: Json };
}

/** One client per endpoint and caller, so a tool's `x-mcp-header` parameters are learnt once, as a client does. */
const clients = new Map<string, TestClient>();

function clientFor(url: string, call: TaskCall): { mcp: TestClient; options: CallOptions } {
  const endpoint = call.query ? `${url}?${call.query}` : url;
  const key = `${endpoint} ${call.as ?? ''}`;
  let mcp = clients.get(key);
  if (!mcp) {
    mcp = testClient(atUrl(endpoint), call.as === undefined ? {} : { headers: { Authorization: `Bearer ${call.as}` } });
    clients.set(key, mcp);
  }
  const capabilities = { ...(call.tasks === false ? {} : { extensions: { [TASKS]: {} } }), ...call.capabilities };
  // Every request of 1.0's helpers had id 1 (a stream's notifications echo it): kept while they are.
  return { mcp, options: { id: 1, capabilities, ...(call.headers ? { headers: call.headers } : {}) } };
}

/** @deprecated `testClient(atUrl(url)).send(method, params)`. */
export function request(
  url: string,
  method: string,
  params: Record<string, unknown>,
  call: TaskCall = {},
): Promise<Response> {
  const { mcp, options } = clientFor(url, call);
  return mcp.send(method, params, options);
}

/** @deprecated `testClient(atUrl(url)).request(method, params)`, which throws a JSON-RPC error as `JsonRpcError`. */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  call: TaskCall = {},
): Promise<TaskReply> {
  const { mcp, options } = clientFor(url, call);
  try {
    const { status, result } = await mcp.request<Json>(method, params, options);
    return { status, result };
  } catch (error) {
    if (!(error instanceof JsonRpcError)) throw error;
    const message = error.message.slice(String(error.code).length + 1);
    const data = error.data === undefined ? {} : { data: error.data as Json };
    return { status: error.status, error: { code: error.code, message, ...data } };
  }
}

/** @deprecated `testClient(atUrl(url)).tasks.waitFor(taskId, statuses)`. */
export function waitFor(
  url: string,
  taskId: string,
  statuses: string[],
  call: TaskCall & { everyMs?: number } = {},
): Promise<Json> {
  const { mcp } = clientFor(url, call);
  return mcp.tasks.waitFor(taskId, statuses, call.everyMs === undefined ? {} : { everyMs: call.everyMs });
}
