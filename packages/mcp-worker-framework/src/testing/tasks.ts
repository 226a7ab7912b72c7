/**
 * Tasks over HTTP for tests (docs/tasks.md): a request declaring the Tasks extension, `tasks/get`
 * polled until a task reaches a status, and the messages of a streamed answer. A task tool's test
 * starts its Worker with `startInWorkerd` (a config with the MCP_TASKS block) and calls these on
 * `${worker.url}/mcp`.
 *
 *   const { result } = await rpc(url, 'tools/call', { name: 'compile_report', arguments: { topic: 'tides' } });
 *   const done = await waitFor(url, result.task.taskId, ['completed']);
 */

/** The Tasks extension's identifier (spec extensions/tasks), as a client declares it. */
export const TASKS = 'io.modelcontextprotocol/tasks';

const VERSION = '2026-07-28';

/** A JSON object of an answer, read by a test as it expects it to be. */
export type Json = Record<string, any>;

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

export interface TaskReply {
  status: number;
  result?: Json;
  error?: { code: number; message: string; data?: Json };
}

/** What `Mcp-Name` mirrors (spec streamable-http, Request Metadata): a task's id, a tool's name, a resource's uri. */
function nameOf(method: string, params: Record<string, unknown>): string | undefined {
  for (const name of method.startsWith('tasks/') ? [params.taskId] : [params.name, params.uri])
    if (typeof name === 'string') return name;
  return undefined;
}

/** A 2026-07-28 request to `url`, declaring the Tasks extension unless `call.tasks` is false. */
export function request(
  url: string,
  method: string,
  params: Record<string, unknown>,
  call: TaskCall = {},
): Promise<Response> {
  const capabilities = { ...(call.tasks === false ? {} : { extensions: { [TASKS]: {} } }), ...call.capabilities };
  const name = nameOf(method, params);
  return fetch(call.query ? `${url}?${call.query}` : url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': VERSION,
      'Mcp-Method': method,
      ...(name !== undefined ? { 'Mcp-Name': name } : {}),
      ...(call.as !== undefined ? { Authorization: `Bearer ${call.as}` } : {}),
      ...call.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
        ...params,
      },
    }),
  });
}

/** `request`, its JSON answer read: the HTTP status and the result or error. */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  call: TaskCall = {},
): Promise<TaskReply> {
  const response = await request(url, method, params, call);
  const body = (await response.json()) as Omit<TaskReply, 'status'>;
  return { status: response.status, result: body.result, error: body.error };
}

/** Polls `tasks/get` every `call.everyMs` (default 25) until the status is one of `statuses` (bounded: 15 s). */
export async function waitFor(
  url: string,
  taskId: string,
  statuses: string[],
  call: TaskCall & { everyMs?: number } = {},
): Promise<Json> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { result, error } = await rpc(url, 'tasks/get', { taskId }, call);
    if (error) throw new Error(`tasks/get failed: ${error.message}`);
    if (result === undefined) throw new Error('tasks/get answered neither a result nor an error');
    if (statuses.includes(result.status)) return result;
    if (Date.now() > deadline)
      throw new Error(`task ${taskId} stayed ${result.status}, never ${statuses.join(' or ')}`);
    await new Promise((resolve) => setTimeout(resolve, call.everyMs ?? 25));
  }
}

/** Reads SSE events from a streaming response, one JSON-RPC message each, until `stop` says so (bounded: 10 s). */
export async function readEvents(response: Response, stop: (message: Json) => boolean): Promise<Json[]> {
  if (!response.body) throw new Error(`the answer (${response.status}) has no body to read events from`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const messages: Json[] = [];
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
        const message = JSON.parse(data) as Json;
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
