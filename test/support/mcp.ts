/** Builds well-formed 2026-07-28 requests, so each test changes only the part it is about. */
import { inject } from 'vitest';

export const VERSION = '2026-07-28';
/** The fixture with every setting at its default (test/fixtures/defaults.ts): where requests go unless told otherwise. */
export const defaultsUrl = () => inject('defaultsUrl');
export const fixtureUrl = () => inject('fixtureUrl');

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

export interface Call {
  url?: string;
  id?: string | number;
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Replaces the generated body entirely. */
  body?: string;
}

/** POSTs one request; `params._meta` defaults to a valid one. */
export function post(method: string, call: Call = {}): Promise<Response> {
  const params: Record<string, unknown> = { _meta: meta(), ...call.params };
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return fetch(call.url ?? defaultsUrl(), {
    method: 'POST',
    headers: { ...mcpHeaders(method, name), ...call.headers },
    body: call.body ?? JSON.stringify({ jsonrpc: '2.0', id: call.id ?? 1, method, params }),
  });
}

export interface JsonRpcReply {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: any };
}

/** The JSON-RPC message in a response body. */
export const replyOf = async (response: Response) => (await response.json()) as JsonRpcReply;

export async function rpc(method: string, call: Call = {}): Promise<{ status: number; headers: Headers; body: JsonRpcReply }> {
  const response = await post(method, call);
  return { status: response.status, headers: response.headers, body: await replyOf(response) };
}

/** Reads a whole SSE response into its JSON-RPC messages. */
export async function sseMessages(response: Response): Promise<JsonRpcReply[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((event) => event.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n'))
    .filter(Boolean)
    .map((data) => JSON.parse(data));
}
