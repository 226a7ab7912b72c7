/**
 * Well-formed 2026-07-28 requests over HTTP, so each test changes only the part it is about.
 * A test file names the Worker it talks to once, `const { post, rpc, raw } = requestsTo(url)`;
 * a call can still go elsewhere with `url`. For what a conforming client does (list, call, read),
 * the test kit's client is shorter: `testClient(atUrl(url))`.
 */
import { expect, inject } from 'vitest';

export const VERSION = '2026-07-28';

/** The fixture with every setting at its default (test/fixtures/defaults.ts). */
export const defaultsUrl = () => inject('defaultsUrl');
/** The fixture with settings the defaults do not use (test/fixtures/worker.ts). */
export const fixtureUrl = () => inject('fixtureUrl');

/** The `_meta` a conforming client sends with every request; `extra` adds or replaces keys. */
export const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});

/** Headers a conforming client sends for this method (and Mcp-Name when the method has one). */
export function mcpHeaders(method: string, name?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': VERSION,
    'Mcp-Method': method,
    ...(name !== undefined ? { 'Mcp-Name': name } : {}),
    ...extra,
  };
}

/**
 * What `Mcp-Name` mirrors (spec streamable-http, Request Metadata): a tool's or prompt's name, a
 * resource's uri, a task's id (spec extensions/tasks, Routing Headers).
 */
function nameOf(method: string, params: Record<string, unknown>): string | undefined {
  for (const name of method.startsWith('tasks/') ? [params.taskId] : [params.name, params.uri])
    if (typeof name === 'string') return name;
  return undefined;
}

export interface Call {
  /** Another endpoint than the file's. */
  url?: string;
  id?: string | number;
  params?: Record<string, unknown>;
  /** Client capabilities for `_meta` (not used when params carry their own `_meta`). */
  capabilities?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Replaces the generated body entirely. */
  body?: string;
}

/** A JSON-RPC message as a Worker sends it: an answer, or a notification of a stream. */
export interface Reply {
  jsonrpc: '2.0';
  id?: string | number | null;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: any };
  method?: string;
  params?: Record<string, any>;
}

/** The JSON-RPC message of a plain JSON response. */
export const replyOf = async (response: Response) => (await response.json()) as Reply;

/** Every JSON-RPC message of an SSE response, in order. */
export async function sseMessages(response: Response): Promise<Reply[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data) as Reply);
}

/**
 * What a listen stream sent before it ended by itself, by its method (the closing result by its
 * id); a stream still open after `ms` is cancelled and the test fails, saying so. For a stream
 * the server must end early (its caller's token expired), long before its time limit.
 */
export async function listenUntilItEnds(response: Response, ms = 15_000): Promise<(string | number | null)[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outlived = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void response.body?.cancel();
      reject(new Error(`the stream was still open after ${ms} ms`));
    }, ms);
  });
  try {
    const messages = await Promise.race([sseMessages(response), outlived]);
    return messages.map((message) => message.method ?? message.id ?? null);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Holds that a caller's expiry ends its listen stream: a stream opened at `endpoint` with
 * `headers` (the caller's credential, close to its expiry) is acknowledged, then ended gracefully
 * by itself (notifications/cancelled, then its result), long before its time limit.
 */
export async function expectListenEndsAtExpiry(endpoint: string, headers: Record<string, string>): Promise<void> {
  const stream = await requestsTo(endpoint).post('subscriptions/listen', {
    id: 'expiring',
    headers,
    params: { notifications: {} },
  });
  expect(stream.status).toBe(200);
  expect(await listenUntilItEnds(stream)).toEqual([
    'notifications/subscriptions/acknowledged',
    'notifications/cancelled',
    'expiring',
  ]);
}

/** Requests to the MCP endpoint at `endpoint`. */
export function requestsTo(endpoint: string) {
  /** POSTs one request; `params._meta` defaults to a valid one. */
  function post(method: string, call: Call = {}): Promise<Response> {
    const params: Record<string, unknown> = {
      _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': call.capabilities ?? {} }),
      ...call.params,
    };
    return fetch(call.url ?? endpoint, {
      method: 'POST',
      headers: { ...mcpHeaders(method, nameOf(method, params)), ...call.headers },
      body: call.body ?? JSON.stringify({ jsonrpc: '2.0', id: call.id ?? 1, method, params }),
    });
  }

  /** POSTs one request and reads its JSON answer. */
  async function rpc(method: string, call: Call = {}): Promise<{ status: number; headers: Headers; body: Reply }> {
    const response = await post(method, call);
    return { status: response.status, headers: response.headers, body: await replyOf(response) };
  }

  /** A POST of `body` as it is, with only the content headers and `headers` (malformed input, legacy clients). */
  const raw = (body: string, headers: Record<string, string> = {}, url = endpoint) =>
    fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  return { post, rpc, raw };
}
