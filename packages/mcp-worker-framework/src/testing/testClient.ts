/**
 * A client for tests, in the spirit of Hono's `app.request`: it calls a Worker's `fetch`
 * directly (no server, no port) with what a conforming 2026-07-28 client sends: the `_meta`
 * of every request and the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and
 * `Mcp-Param-*` headers (spec 2026-07-28 basic/index, streamable-http Request Metadata).
 *
 *   import worker from '../src/index';
 *   const mcp = testClient(worker, { env: { MCP_STATE_SECRET: 'test' } });
 *   const { result } = await mcp.callTool('add', { a: 2, b: 3 });
 *   const typed = await mcp.callTool(add, { a: 2, b: 3 }); // the tool itself: args and structuredContent typed by its schemas
 *
 * Any `{ fetch(request) }` works: the Worker in workerd from `startInWorkerd`, or a server at a
 * URL (`wrangler dev`, a deployment) through `atUrl`.
 */
import type {
  CallToolResult,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  InputRequiredResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import type { ToolDefinition } from '../mcp/index.js';
import type { CallArgumentsOf, InputSchema, OutputSchema, StructuredOf } from '../mcp/toolSchema.js';
import type { DetailedTask, Task } from '../tasks/taskRecord.js';
import { type Message, messagesOf } from './events.js';

const VERSION = '2026-07-28';
/** The Tasks extension's identifier (spec extensions/tasks), as a client declares it. */
export const TASKS = 'io.modelcontextprotocol/tasks';

/** What a test client calls: a Worker's default export, or anything with its `fetch`. */
export interface FetchTarget {
  fetch(request: Request, env: never, ctx: never): Response | Promise<Response>;
}

export interface TestClientOptions {
  /** The Worker's `env` (vars, secrets, bindings) when it is called in process. Default: a state secret, and AUTH_MODE "none" (a tool is tested without a credential; a test of your auth sets AUTH_MODE). */
  env?: Record<string, unknown>;
  /** Client capabilities declared on every request (a call can add its own). Default: none. */
  capabilities?: Record<string, unknown>;
  /** Headers sent on every request, e.g. `Authorization`. */
  headers?: Record<string, string>;
  /** Declares the Tasks extension on every request, as a client that polls tasks does (docs/tasks.md). */
  tasks?: boolean;
}

export interface CallOptions {
  /** Capabilities declared for this request (spec basic/index, `io.modelcontextprotocol/clientCapabilities`), over the client's own. */
  capabilities?: Record<string, unknown>;
  /** Answers to the server's `inputRequests`, keyed as it asked (multi round-trip requests). */
  inputResponses?: Record<string, unknown>;
  /** The `requestState` of the previous round, sent back unchanged. */
  requestState?: string;
  /** Asks for progress notifications (the answer then streams). */
  progressToken?: string | number;
  headers?: Record<string, string>;
  /** The request's JSON-RPC id (and so a listen stream's subscription id); default the client's next. */
  id?: string | number;
}

/** A JSON-RPC message the server sent before its answer (progress, logs). */
export interface Notification {
  method: string;
  params?: { [field: string]: unknown };
}

/** A result no helper types: any method's, through `request`. */
export type JsonResult = { [field: string]: unknown };

export interface Answer<Result = JsonResult> {
  result: Result;
  /** Notifications of a streamed (SSE) answer, in order; empty for a JSON answer. */
  notifications: Notification[];
  status: number;
  headers: Headers;
}

/**
 * What `tools/call` answers: the tool's result, or, while it asks for input (spec basic/patterns/mrtr),
 * the `inputRequests` and the `requestState` to send back with the answers.
 */
export type ToolCallResult = CallToolResult & Pick<InputRequiredResult, 'inputRequests' | 'requestState'>;

/** A `tools/call` result of a tool given as a value: `structuredContent` typed by its `outputSchema`. */
export type ToolAnswer<Structured = unknown> = Omit<ToolCallResult, 'structuredContent'> & {
  structuredContent?: Structured;
};

/** A `tools/call` that became a task (spec extensions/tasks, Task Creation: `CreateTaskResult`). */
export type CreateTaskResult = Task & { resultType: 'task' };

/** What `tasks/get` shows (spec extensions/tasks, Task Polling): the task, with its `inputRequests`, `result` or `error` inlined. */
export type { DetailedTask };

/** `arguments` of a call to `Tool`, typed by its `inputSchema`; optional when it requires none. */
type ToolArguments<In> =
  {} extends CallArgumentsOf<In>
    ? [args?: CallArgumentsOf<In>, call?: CallOptions]
    : [args: CallArgumentsOf<In>, call?: CallOptions];

/** A JSON-RPC error answer, thrown so a test can `await expect(call).rejects.toMatchObject({ code })`. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
    readonly status: number,
  ) {
    super(`${code} ${message}`);
  }
}

/** Where a parameter annotated with `x-mcp-header` sits in the arguments, and its header. */
type HeaderParam = { path: string[]; header: string };

/** A Worker served over HTTP, e.g. `atUrl('http://localhost:8787/mcp')` under `wrangler dev`. */
export const atUrl = (url: string): FetchTarget => ({
  fetch: async (request: Request) =>
    fetch(url, { method: request.method, headers: request.headers, body: await request.text() }),
});

export function testClient(worker: FetchTarget, options: TestClientOptions = {}) {
  if (typeof worker?.fetch !== 'function') {
    throw new TypeError(
      "testClient needs a Worker's default export (an object with fetch): `import worker from '../src/index'`",
    );
  }
  const env = { MCP_STATE_SECRET: 'test kit secret', AUTH_MODE: 'none', ...options.env };
  const waiting: Promise<unknown>[] = [];
  const ctx = {
    waitUntil: (promise: Promise<unknown>) => void waiting.push(promise),
    passThroughOnException() {},
    props: {},
  };
  let headerParams: Promise<Map<string, HeaderParam[]>> | undefined;
  const declared = options.tasks ? withTasks(options.capabilities) : { ...options.capabilities };
  let id = 0;

  /**
   * One request as a conforming client sends it, and the Worker's HTTP answer as it is: for a
   * stream to read as it comes (`readEvents`: a listen stream never ends by itself), or a status or
   * header a test checks. Every helper below sends through here.
   */
  async function send(method: string, params: Record<string, unknown> = {}, call: CallOptions = {}): Promise<Response> {
    const meta: Record<string, unknown> = {
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'mcp-test-kit', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': { ...declared, ...call.capabilities },
      ...(call.progressToken !== undefined ? { progressToken: call.progressToken } : {}),
    };
    const body = {
      ...params,
      ...(call.inputResponses ? { inputResponses: call.inputResponses } : {}),
      ...(call.requestState !== undefined ? { requestState: call.requestState } : {}),
      _meta: meta,
    };
    // The target each method names in Mcp-Name (spec streamable-http; tasks: spec extensions/tasks, Routing Headers).
    const named =
      method === 'resources/read'
        ? params.uri
        : method.startsWith('tasks/')
          ? params.taskId
          : ['tools/call', 'prompts/get'].includes(method)
            ? params.name
            : undefined;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': VERSION,
      'Mcp-Method': method,
      ...(typeof named === 'string' ? { 'Mcp-Name': headerValue(named) } : {}),
      ...(method === 'tools/call'
        ? paramHeaders((await toolHeaderParams()).get(String(params.name)) ?? [], params.arguments)
        : {}),
      ...options.headers,
      ...call.headers,
    };
    const sent = new Request('http://localhost/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: call.id ?? ++id, method, params: body }),
    });
    return worker.fetch(sent, env as never, ctx as never);
  }

  /** Any method, its answer read whole: `{ result, notifications, status, headers }`; a JSON-RPC error is thrown as `JsonRpcError`. */
  async function request<Result = JsonResult>(
    method: string,
    params: Record<string, unknown> = {},
    call: CallOptions = {},
  ): Promise<Answer<Result>> {
    const response = await send(method, params, call);
    const messages = await messagesOf(response);
    await Promise.all(waiting.splice(0));
    const answer = messages.find((message) => 'id' in message);
    if (!answer) throw new Error(`${method}: the Worker answered HTTP ${response.status} with no JSON-RPC answer`);
    if (answer.error)
      throw new JsonRpcError(answer.error.code, answer.error.message, answer.error.data, response.status);
    const notifications = messages.filter((message): message is Notification => !('id' in message));
    return { result: answer.result as Result, notifications, status: response.status, headers: response.headers };
  }

  /** The `x-mcp-header` parameters of every tool, learnt once from tools/list as a client does. */
  function toolHeaderParams() {
    headerParams ??= list<ListToolsResult, 'tools'>('tools/list', 'tools').then(
      ({ result }) => new Map(result.tools.map((tool) => [tool.name, annotated(tool.inputSchema, [])])),
    );
    return headerParams;
  }

  /**
   * Every page of a list, following nextCursor as a client does: one answer like any other, whose
   * `result[key]` holds the items of all pages (status and headers are the last page's).
   */
  async function list<Result extends Record<Key, unknown[]>, Key extends string>(
    method: string,
    key: Key,
  ): Promise<Answer<Result>> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    let page: Answer<Result & { nextCursor?: string }>;
    do {
      page = await request(method, cursor === undefined ? {} : { cursor });
      items.push(...page.result[key]);
      cursor = page.result.nextCursor;
    } while (cursor !== undefined);
    return { ...page, result: { [key]: items } as Result };
  }

  /**
   * `tools/call` by name, or with the tool itself (`callTool(greet, { name: 'Ada' })`): then its
   * arguments are typed by its `inputSchema` and `structuredContent` by its `outputSchema`.
   */
  function callTool<In extends InputSchema, Out extends OutputSchema | undefined>(
    tool: ToolDefinition<In, Out>,
    ...[args, call]: ToolArguments<In>
  ): Promise<Answer<ToolAnswer<[Out] extends [undefined] ? unknown : StructuredOf<Out>>>>;
  function callTool(name: string, args?: Record<string, unknown>, call?: CallOptions): Promise<Answer<ToolCallResult>>;
  function callTool(tool: string | { name: string }, args: unknown = {}, call?: CallOptions): Promise<Answer> {
    return request('tools/call', { name: typeof tool === 'string' ? tool : tool.name, arguments: args }, call);
  }

  /** `call` with the Tasks extension declared, whatever the client's options (docs/tasks.md). */
  const task = (call: CallOptions = {}): CallOptions => ({
    ...call,
    capabilities: withTasks({ ...declared, ...call.capabilities }),
  });

  /** `tasks/get`, every `everyMs` (default 25) until the task's status is one of `statuses` (bounded: 15 s). */
  async function waitFor(taskId: string, statuses: readonly string[], { everyMs = 25 } = {}): Promise<DetailedTask> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { result } = await request<DetailedTask>('tasks/get', { taskId }, task());
      if (statuses.includes(result.status)) return result;
      if (Date.now() > deadline)
        throw new Error(`task ${taskId} stayed ${result.status}, never ${statuses.join(' or ')}`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  return {
    request,
    send,
    discover: () => request<DiscoverResult>('server/discover'),
    listTools: () => list<ListToolsResult, 'tools'>('tools/list', 'tools'),
    listResources: () => list<ListResourcesResult, 'resources'>('resources/list', 'resources'),
    listResourceTemplates: () =>
      list<ListResourceTemplatesResult, 'resourceTemplates'>('resources/templates/list', 'resourceTemplates'),
    listPrompts: () => list<ListPromptsResult, 'prompts'>('prompts/list', 'prompts'),
    callTool,
    readResource: (uri: string, call?: CallOptions) => request<ReadResourceResult>('resources/read', { uri }, call),
    getPrompt: (name: string, args: Record<string, string> = {}, call?: CallOptions) =>
      request<GetPromptResult>('prompts/get', { name, arguments: args }, call),
    complete: (ref: Record<string, string>, argument: { name: string; value: string }) =>
      request<CompleteResult>('completion/complete', { ref, argument }),
    /** The Tasks extension's methods (docs/tasks.md); each declares the extension, whatever the client's options. */
    tasks: {
      /** `tools/call` of a task tool, declaring the extension: the task it created (a call answered at once is an error here). */
      start: async (name: string, args: Record<string, unknown> = {}, call?: CallOptions) => {
        const answer = await request<CreateTaskResult | CallToolResult>(
          'tools/call',
          { name, arguments: args },
          task(call),
        );
        if (answer.result.resultType !== 'task')
          throw new Error(`tools/call ${name} answered ${String(answer.result.resultType ?? 'a result')}, not a task`);
        return answer as Answer<CreateTaskResult>;
      },
      get: (taskId: string, call?: CallOptions) => request<DetailedTask>('tasks/get', { taskId }, task(call)),
      update: (taskId: string, inputResponses: Record<string, unknown>, call?: CallOptions) =>
        request('tasks/update', { taskId, inputResponses }, task(call)),
      cancel: (taskId: string, call?: CallOptions) => request('tasks/cancel', { taskId }, task(call)),
      waitFor,
    },
  };
}

export type TestClient = ReturnType<typeof testClient>;
export type { Message };

/** `capabilities` with the Tasks extension declared (spec extensions/tasks, Capability Negotiation). */
const withTasks = (capabilities: Record<string, unknown> = {}) => ({
  ...capabilities,
  extensions: { ...(capabilities.extensions as object), [TASKS]: {} },
});

function annotated(schema: unknown, path: string[]): HeaderParam[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const { properties } = schema as { properties?: Record<string, unknown> };
  return Object.entries(properties ?? {}).flatMap(([key, property]) => {
    const header = (property as Record<string, unknown>)['x-mcp-header'];
    return typeof header === 'string' ? [{ path: [...path, key], header }] : annotated(property, [...path, key]);
  });
}

/** `Mcp-Param-*` headers mirroring the annotated arguments; absent or null values send none (spec streamable-http). */
function paramHeaders(params: HeaderParam[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of params) {
    const value = path.reduce<unknown>(
      (at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined),
      args,
    );
    if (value !== undefined && value !== null) headers[`Mcp-Param-${header}`] = headerValue(String(value));
  }
  return headers;
}

/** A header value as sent: plain when it is visible ASCII without edge spaces, else `=?base64?…?=` (spec streamable-http, Value Encoding). */
function headerValue(value: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
