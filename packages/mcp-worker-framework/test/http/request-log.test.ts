/**
 * Request logs that tell the truth: exactly one line per request, refusals included, written
 * when the answer has really ended, with its final status, JSON-RPC error code and duration.
 * The edge fixture runs in workerd and the test reads the lines it prints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerInWorkerd } from '../../src/testing';
import { mcpHeaders, meta } from '../support/mcp';
import { logLines, startEdge, waitForLine, type LogLine } from './edge';

const TOKEN = 'edge-test-token';
let worker: WorkerInWorkerd;
let url: string;

beforeAll(async () => {
  worker = await startEdge({ AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: TOKEN, AUTH_SCOPES: 'mcp:read' });
  url = `${worker.url}/mcp`;
});
afterAll(() => worker?.dispose());

type Line = LogLine;

/** Every request log line printed so far. */
const lines = () => logLines(worker);

/** The one line that matches, once it has been written. */
const lineFor = (match: (line: Line) => boolean) => waitForLine(worker, match);

let nextId = 1000;
/** POSTs one tools/call with the token and a unique id; returns the id and the whole body. */
async function callTool(name: string, extra: { token?: string | null; params?: Record<string, unknown> } = {}) {
  const id = nextId++;
  const token = extra.token === undefined ? TOKEN : extra.token;
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...mcpHeaders('tools/call', name), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: {}, _meta: meta(), ...extra.params },
    }),
  });
  return { id: String(id), response, body: await response.text() };
}

describe('request log', () => {
  it('logs a streamed call that fails when its stream ends: status 200, the error code of the last event, the whole duration', async () => {
    const { id, response, body } = await callTool('streams_then_fails', {
      params: { _meta: meta({ progressToken: 'p' }) },
    });
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    expect(body).toMatch(/notifications\/progress[\s\S]*"code":-32603/);
    const line = await lineFor((l) => l['jsonrpc.request.id'] === id);
    expect(line).toMatchObject({
      'http.response.status_code': 200,
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'streams_then_fails',
      'rpc.jsonrpc.error_code': -32603,
      'error.type': '-32603',
      'mcp.stream.ended_by': 'server',
    });
    // The handler waited 20 ms after its first event: the duration runs to the stream's end, not the first byte.
    expect(line.duration_ms).toBeGreaterThanOrEqual(15);
  });

  it('logs a 415 refusal, before any message is read', async () => {
    const response = await fetch(`${url}?case=415`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${TOKEN}` },
      body: '{}',
    });
    expect(response.status).toBe(415);
    const line = await lineFor((l) => l['http.response.status_code'] === 415);
    expect(line).toMatchObject({ 'http.request.method': 'POST', 'url.path': '/mcp', 'rpc.jsonrpc.error_code': -32600 });
    expect(line).not.toHaveProperty('mcp.method.name');
  });

  it('logs a parse error with -32700', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body: '{"jsonrpc": ',
    });
    expect(response.status).toBe(400);
    await lineFor((l) => l['rpc.jsonrpc.error_code'] === -32700 && l['http.response.status_code'] === 400);
  });

  it('logs a scope refusal with 403, its code and the tool', async () => {
    const { id, response } = await callTool('admin_only');
    expect(response.status).toBe(403);
    const line = await lineFor((l) => l['jsonrpc.request.id'] === id);
    expect(line).toMatchObject({
      'http.response.status_code': 403,
      'gen_ai.tool.name': 'admin_only',
      'rpc.jsonrpc.error_code': -32600,
    });
  });

  it('logs a 401 for a missing token, before the body is read', async () => {
    const { response } = await callTool('admin_only', { token: null });
    expect(response.status).toBe(401);
    const line = await lineFor((l) => l['http.response.status_code'] === 401);
    expect(line).toMatchObject({ 'rpc.jsonrpc.error_code': -32600 });
    expect(line).not.toHaveProperty('mcp.method.name');
  });

  it('logs 404 and 405 answers of the router', async () => {
    expect((await fetch(`${worker.url}/no-such-path`)).status).toBe(404);
    expect((await fetch(url)).status).toBe(405);
    await lineFor((l) => l['url.path'] === '/no-such-path' && l['http.response.status_code'] === 404);
    await lineFor((l) => l['url.path'] === '/mcp' && l['http.response.status_code'] === 405);
  });

  it('writes exactly one line per request', async () => {
    const before = lines().length;
    const ids = [];
    for (const name of ['everything', 'admin_only', 'no_such_tool'])
      ids.push((await callTool(name, { params: { arguments: { n: 1 } } })).id);
    await fetch(`${worker.url}/also-missing`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lines().length - before).toBe(4);
    for (const id of ids) expect(lines().filter((l) => l['jsonrpc.request.id'] === id)).toHaveLength(1);
  });
});
