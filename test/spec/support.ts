/**
 * Helpers of the spec suites: well-formed 2026-07-28 requests to the spec fixture, and a check
 * of every answer against the spec's own JSON Schema. `schema.json` beside this file is a copy of
 * the spec's (2026-07-28/schema.json), so a fork's tests need nothing outside the repository;
 * `npm run spec-coverage -- --check` fails if it differs from the spec checked out beside it.
 */
import { readFileSync } from 'node:fs';
import { Validator, type Schema } from '@cfworker/json-schema';
import { expect, inject } from 'vitest';
import { mcpHeaders, VERSION } from '../support/mcp';

export { VERSION };
export const specUrl = () => inject('specUrl');

const schema = JSON.parse(readFileSync(new URL('./schema.json', import.meta.url), 'utf8')) as Schema;
const validators = new Map<string, Validator>();

/** Asserts that `message` is a valid instance of the schema's `$defs[type]`. */
export function expectSchema(message: unknown, type: string): void {
  let validator = validators.get(type);
  if (!validator) {
    if (!(type in (schema.$defs ?? {}))) throw new Error(`schema.json has no $defs/${type}`);
    validator = new Validator({ $schema: schema.$schema, $defs: schema.$defs, $ref: `#/$defs/${type}` } as Schema, '2020-12', false);
    validators.set(type, validator);
  }
  const { valid, errors } = validator.validate(message);
  expect(valid, `${type}: ${JSON.stringify(errors.slice(-3))}\n${JSON.stringify(message)}`).toBe(true);
}

export const meta = (capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'spec-suite', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  ...extra,
});

export interface Call {
  url?: string;
  id?: string | number;
  params?: Record<string, unknown>;
  /** Client capabilities for `_meta` (ignored when params carry their own `_meta`). */
  capabilities?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Replaces the generated body. */
  body?: string;
}

/** The headers a conforming client sends with this request (Mcp-Name mirrors name or uri). */
export function headersFor(method: string, params: Record<string, unknown> = {}): Record<string, string> {
  return mcpHeaders(method, typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined);
}

export function post(method: string, call: Call = {}): Promise<Response> {
  const params = { _meta: meta(call.capabilities), ...call.params };
  return fetch(call.url ?? specUrl(), {
    method: 'POST',
    headers: { ...headersFor(method, params), ...call.headers },
    body: call.body ?? JSON.stringify({ jsonrpc: '2.0', id: call.id ?? 1, method, params }),
  });
}

export interface Reply {
  jsonrpc: '2.0';
  id?: string | number | null;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: any };
  method?: string;
  params?: Record<string, any>;
}

export async function rpc(method: string, call: Call = {}): Promise<{ status: number; headers: Headers; body: Reply }> {
  const response = await post(method, call);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Reply };
}

/** A POST with the given raw body and headers (for malformed input and legacy clients). */
export const raw = (body: string, headers: Record<string, string> = {}, url = specUrl()) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body });

/** Every JSON-RPC message of an SSE response, in order. */
export async function sseMessages(response: Response): Promise<Reply[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((event) => event.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n'))
    .filter(Boolean)
    .map((data) => JSON.parse(data) as Reply);
}

/** The JSON-RPC message of a plain JSON response. */
export const replyOf = async (response: Response) => (await response.json()) as Reply;

/** JSON-RPC's own errors are described as error objects in the schema; MCP's own as whole responses. */
const ERROR_OBJECTS = new Set(['ParseError', 'InvalidRequestError', 'MethodNotFoundError', 'InvalidParamsError', 'InternalError']);

/**
 * Asserts that `reply` is a valid JSON-RPC error response whose error is a valid `type`. An id
 * that could not be read is `null`, as JSON-RPC 2.0 section 5 requires (and basic/index: "MUST
 * follow the JSON-RPC 2.0 specification"); the schema only knows an absent id, so a null one is
 * checked without it.
 */
export function expectErrorSchema(reply: Reply, type: string): void {
  const { id, ...rest } = reply;
  expectSchema(id === null ? rest : reply, 'JSONRPCErrorResponse');
  expectSchema(ERROR_OBJECTS.has(type) ? reply.error : reply, type);
}
