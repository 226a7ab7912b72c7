/**
 * Ids of every allowed shape, with request logs on (the edge fixture in workerd,
 * REQUEST_LOGS = "on"): an integer beyond 2^53 is echoed digit for digit by every method, error
 * path, legacy request and legacy batch, and logged with the same digits (spec 2026-07-28
 * basic/index: the response MUST include the same id); a log line stays bounded however long
 * the id, tool name or client name the client sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerInWorkerd } from '../../src/testing';
import { MAX_ATTRIBUTE_CHARS } from '../../src/http/observability/requestAttributes';
import { mcpHeaders, meta } from '../support/mcp';
import { startEdge, waitForLine, type LogLine } from './edge';

let worker: WorkerInWorkerd;
let url: string;

beforeAll(async () => {
  worker = await startEdge({ MAX_BODY_BYTES: '4194304' });
  url = `${worker.url}/mcp`;
});
afterAll(() => worker?.dispose());

/** A distinct id beyond 2^53 per request, so each finds its own log line. */
let next = 0;
const bigId = () => `1234567890123456789${String(next++).padStart(4, '0')}`;

/** POSTs `body` as it is written (an id of more digits than a double holds stays as sent). */
async function send(body: string, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, text: await response.text() };
}

/** A modern request with the id's source `id`, as a client writes it. */
const modern = (id: string, method: string, params: Record<string, unknown> = {}, name?: string) =>
  send(
    `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify({ ...params, _meta: meta() })}}`,
    mcpHeaders(method, name),
  );

const lineOf = (id: string) => waitForLine(worker, (line) => line['jsonrpc.request.id'] === id);

describe('an integer id beyond 2^53, with request logs on', () => {
  it('is echoed and logged digit for digit by discover, tools/list and tools/call', async () => {
    for (const [method, params, name] of [
      ['server/discover', {}],
      ['tools/list', {}],
      ['tools/call', { name: 'everything', arguments: { n: 1 } }, 'everything'],
      ['resources/read', { uri: 'edge://doc' }, 'edge://doc'],
      ['prompts/get', { name: 'greet', arguments: { who: 'Ada' } }, 'greet'],
    ] as const) {
      const id = bigId();
      const { status, text } = await modern(id, method, params, name);
      expect(status, `${method}: ${text}`).toBe(200);
      expect(text.startsWith(`{"jsonrpc":"2.0","id":${id},"result":`), method).toBe(true);
      expect(await lineOf(id)).toMatchObject({ 'mcp.method.name': method, 'http.response.status_code': 200 });
    }
  });

  it('is echoed and logged by the errors: an unknown method, bad params, a negative id', async () => {
    const unknown = bigId();
    const a = await modern(unknown, 'no/such/method');
    expect(a.text.startsWith(`{"jsonrpc":"2.0","id":${unknown},"error":{"code":-32601`), a.text).toBe(true);
    expect(await lineOf(unknown)).toMatchObject({ 'rpc.jsonrpc.error_code': -32601 });

    const bad = bigId();
    const b = await modern(bad, 'tools/call', { name: 'everything', arguments: { n: 'not an integer' } }, 'everything');
    expect(b.status).toBe(200);
    expect(b.text).toContain(`"id":${bad},`);
    expect(b.text).toContain('"isError":true');
    expect(await lineOf(bad)).toMatchObject({ 'gen_ai.tool.name': 'everything' });

    const noMeta = bigId();
    const c = await send(
      `{"jsonrpc":"2.0","id":${noMeta},"method":"tools/list","params":{}}`,
      mcpHeaders('tools/list'),
    );
    expect(c.status).toBe(400);
    expect(c.text.startsWith(`{"jsonrpc":"2.0","id":${noMeta},"error":{"code":-32602`), c.text).toBe(true);
    expect(await lineOf(noMeta)).toMatchObject({ 'rpc.jsonrpc.error_code': -32602 });

    const negative = `-${bigId()}`;
    const d = await modern(negative, 'tools/list');
    expect(d.text.startsWith(`{"jsonrpc":"2.0","id":${negative},"result":`)).toBe(true);
    await lineOf(negative);
  });

  it('is echoed and logged for a legacy client, and echoed in each answer of a legacy batch', async () => {
    const id = bigId();
    const legacy = await send(`{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`, {
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': '2025-11-25',
    });
    expect(legacy.status).toBe(200);
    expect(legacy.text.startsWith(`{"jsonrpc":"2.0","id":${id},"result":`), legacy.text).toBe(true);
    expect(await lineOf(id)).toMatchObject({ 'mcp.era': 'legacy' });

    const [first, second] = [bigId(), bigId()];
    const batch = await send(
      `[{"jsonrpc":"2.0","id":${first},"method":"ping"},{"jsonrpc":"2.0","id":${second},"method":"no/such"}]`,
      {
        'Content-Type': 'application/json',
        'MCP-Protocol-Version': '2025-03-26',
      },
    );
    expect(batch.status).toBe(200);
    expect(
      batch.text.startsWith(
        `[{"jsonrpc":"2.0","id":${first},"result":{}},{"jsonrpc":"2.0","id":${second},"error":{"code":-32601,`,
      ),
      batch.text,
    ).toBe(true);
    // a batch is one line, its members not one by one
    await waitForLine(worker, (line) => line['jsonrpc.batch.size'] === 2 && line['http.response.status_code'] === 200);
  });
});

describe('log lines stay bounded', () => {
  /** The line as long as it was printed, near enough (its `duration_ms` aside). */
  const length = (line: LogLine) => JSON.stringify(line).length;
  const LINE_BOUND = 16 * MAX_ATTRIBUTE_CHARS;

  it('for a 1 MB string id: the answer echoes it whole, the log line carries its first characters and "…"', async () => {
    const id = `big-string-id-${'i'.repeat(1_000_000)}`;
    const { status, text } = await modern(JSON.stringify(id), 'tools/list');
    expect(status).toBe(200);
    expect(text.startsWith(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`)).toBe(true);
    const line = await waitForLine(worker, (l) => String(l['jsonrpc.request.id']).startsWith('big-string-id-'));
    expect(line['jsonrpc.request.id']).toBe(`${id.slice(0, MAX_ATTRIBUTE_CHARS)}…`);
    expect(length(line)).toBeLessThan(LINE_BOUND);
  });

  it('for a long tool name and a long client name', async () => {
    const name = `long-tool-${'t'.repeat(100_000)}`;
    const client = `long-client-${'c'.repeat(100_000)}`;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'long-names',
      method: 'tools/call',
      params: {
        name,
        arguments: {},
        _meta: meta({ 'io.modelcontextprotocol/clientInfo': { name: client, version: 'v'.repeat(100_000) } }),
      },
    });
    const { status } = await send(body, mcpHeaders('tools/call', name));
    expect(status).toBe(400); // no such tool
    const line = await lineOf('long-names');
    expect(line['gen_ai.tool.name']).toBe(`${name.slice(0, MAX_ATTRIBUTE_CHARS)}…`);
    expect(String(line['mcp.client']).length).toBeLessThanOrEqual(MAX_ATTRIBUTE_CHARS + 1);
    expect(length(line)).toBeLessThan(LINE_BOUND);
  });
});
