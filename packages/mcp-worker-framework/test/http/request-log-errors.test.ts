/**
 * REQUEST_LOGS = "errors", the default: a line for each request answered with an error or a
 * refusal, none for one that succeeded (a line costs the Worker a tenth to a fifth of its
 * throughput: BENCHMARKS.md). The edge fixture runs in workerd; the test reads its lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerInWorkerd } from '../../src/testing';
import { mcpHeaders, meta } from '../support/mcp';
import { logLines, startEdge } from './edge';

let worker: WorkerInWorkerd;
let url: string;

beforeAll(async () => {
  worker = await startEdge({ REQUEST_LOGS: 'errors' });
  url = `${worker.url}/mcp`;
});
afterAll(() => worker?.dispose());

const lines = () => logLines(worker);

/** Lets a line that is on its way show up (a streamed answer's line follows its end). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

let nextId = 2000;
async function post(method: string, params: Record<string, unknown>, name?: string) {
  const id = nextId++;
  const response = await fetch(url, {
    method: 'POST',
    headers: mcpHeaders(method, name),
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } }),
  });
  await response.text();
  return { id: String(id), status: response.status };
}

describe('request log, REQUEST_LOGS = "errors"', () => {
  it('writes no line for requests that succeed', async () => {
    const before = lines().length;
    expect((await post('tools/list', {})).status).toBe(200);
    expect((await post('tools/call', { name: 'everything', arguments: { n: 1 } }, 'everything')).status).toBe(200);
    await settle();
    expect(lines().length).toBe(before);
  });

  it('writes one line for a refusal and for a call that fails', async () => {
    const refused = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    expect(refused.status).toBe(415);
    const failed = await post('tools/call', { name: 'no_such_tool', arguments: {} }, 'no_such_tool');
    await settle();
    expect(lines().filter((l) => l['http.response.status_code'] === 415)).toHaveLength(1);
    expect(lines().filter((l) => l['jsonrpc.request.id'] === failed.id)).toHaveLength(1);
  });

  it('writes the line of a streamed call that fails when its stream ends', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: mcpHeaders('tools/call', 'streams_then_fails'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2999,
        method: 'tools/call',
        params: { name: 'streams_then_fails', arguments: {}, _meta: meta({ progressToken: 'p' }) },
      }),
    });
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    await response.text();
    await settle();
    const line = lines().filter((l) => l['jsonrpc.request.id'] === '2999');
    expect(line).toHaveLength(1);
    expect(line[0]).toMatchObject({ 'rpc.jsonrpc.error_code': -32603, 'mcp.stream.ended_by': 'server' });
  });
});
