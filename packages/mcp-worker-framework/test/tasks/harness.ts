/**
 * The Tasks fixture (test/tasks/wrangler.toml) in workerd through the test kit, and requests to a
 * Worker with task tools as a given principal, with or without the Tasks extension declared.
 */
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { requestsTo } from '../support/mcp';

export const TASKS = 'io.modelcontextprotocol/tasks';

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

export interface TaskCall {
  /** The caller's principal (the fixture's token is the principal's name). */
  as?: string;
  /** Declares the Tasks extension on this request (default true). */
  tasks?: boolean;
  capabilities?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Query string of the endpoint, e.g. `short-lived`. */
  query?: string;
}

export interface TaskReply {
  status: number;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: any };
}

/** A request as `call.as` (default alice), declaring the Tasks extension unless `call.tasks` is false. */
export function request(
  url: string,
  method: string,
  params: Record<string, unknown>,
  call: TaskCall = {},
): Promise<Response> {
  const capabilities = { ...(call.tasks === false ? {} : { extensions: { [TASKS]: {} } }), ...call.capabilities };
  const headers = { Authorization: `Bearer ${call.as ?? 'alice'}`, ...call.headers };
  return requestsTo(call.query ? `${url}?${call.query}` : url).post(method, { params, capabilities, headers });
}

export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  call: TaskCall = {},
): Promise<TaskReply> {
  const response = await request(url, method, params, call);
  const body = (await response.json()) as { result?: Record<string, any>; error?: TaskReply['error'] };
  return { status: response.status, result: body.result, error: body.error };
}

/** Polls `tasks/get` every `call.everyMs` (default 25) until the status is one of `statuses` (bounded: 15 s). */
export async function waitFor(
  url: string,
  taskId: string,
  statuses: string[],
  call: TaskCall & { everyMs?: number } = {},
): Promise<Record<string, any>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { result, error } = await rpc(url, 'tasks/get', { taskId }, call);
    if (error) throw new Error(`tasks/get failed: ${error.message}`);
    if (statuses.includes(result!.status)) return result!;
    if (Date.now() > deadline)
      throw new Error(`task ${taskId} stayed ${result!.status}, never ${statuses.join(' or ')}`);
    await new Promise((resolve) => setTimeout(resolve, call.everyMs ?? 25));
  }
}

/** Reads SSE events from a streaming response, one JSON-RPC message each, until `stop` says so (bounded: 10 s). */
export async function readEvents(
  response: Response,
  stop: (message: Record<string, any>) => boolean,
): Promise<Record<string, any>[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const messages: Record<string, any>[] = [];
  const timer = setTimeout(() => void reader.cancel(), 10_000);
  let buffer = '';
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      buffer += next.value;
      const events = buffer.split('\n\n');
      buffer = events.pop() ?? '';
      for (const event of events) {
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (!data) continue;
        const message = JSON.parse(data) as Record<string, any>;
        messages.push(message);
        if (stop(message)) return messages;
      }
    }
    return messages;
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}
