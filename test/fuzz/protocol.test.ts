/**
 * Property-based fuzzing of the defaults fixture Worker's fetch handler, called in process: generated valid
 * requests for every method, then mutations of their headers and bodies. Properties: never a
 * 5xx; every answer is JSON-RPC (or empty for 202/405); the error code fits the class of
 * mistake; valid requests still succeed after every bad one. Fixed seed here; `npm run fuzz`
 * runs many more (FUZZ_RUNS, FUZZ_SEED).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ITEM_NAMES } from '../fixtures/resources';
import worker from '../fixtures/defaults.worker';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
const env = {
  ALLOWED_ORIGINS: 'http://localhost:*',
  MAX_BODY_BYTES: '65536',
  LISTEN_MAX_SECONDS: '1',
  UPSTREAM_URL: 'http://127.0.0.1:9',
  LEGACY_CLIENTS: 'on',
  MCP_STATE_SECRET: 'fuzz',
} as unknown as Env;
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

interface Wire {
  headers: Record<string, string>;
  body: unknown;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function wire(method: string, params: Record<string, unknown>, id: string | number): Wire {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  if (name !== undefined && ['tools/call', 'prompts/get', 'resources/read'].includes(method)) {
    headers['mcp-name'] = /^[\x21-\x7e]*$/.test(name) ? name : `=?base64?${Buffer.from(name).toString('base64')}?=`;
  }
  if (method === 'tools/call' && typeof (params.arguments as { region?: unknown })?.region === 'string') {
    headers['mcp-param-region'] = (params.arguments as { region: string }).region;
  }
  return { headers, body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } } };
}

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }));
const valid: fc.Arbitrary<Wire> = fc.oneof(
  id.map((i) => wire('server/discover', {}, i)),
  id.map((i) => wire('tools/list', {}, i)),
  fc.tuple(id, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()).map(([i, a, b]) => wire('tools/call', { name: 'sum', arguments: { a, b } }, i)),
  fc.tuple(id, fc.constantFrom('eu', 'us-east', 'ap')).map(([i, region]) => wire('tools/call', { name: 'routed', arguments: { region } }, i)),
  id.map((i) => wire('resources/list', {}, i)),
  id.map((i) => wire('resources/templates/list', {}, i)),
  id.map((i) => wire('resources/read', { uri: 'test://public-doc' }, i)),
  fc.tuple(id, fc.constantFrom(...ITEM_NAMES)).map(([i, path]) => wire('resources/read', { uri: `test://items/${path}` }, i)),
  id.map((i) => wire('prompts/list', {}, i)),
  fc.tuple(id, fc.string({ minLength: 1, maxLength: 30 }), fc.string({ minLength: 1, maxLength: 30 })).map(([i, name, tone]) =>
    wire('prompts/get', { name: 'greeting', arguments: { name, tone } }, i),
  ),
  fc.tuple(id, fc.string({ maxLength: 10 })).map(([i, value]) =>
    wire('completion/complete', { ref: { type: 'ref/resource', uri: 'test://items/{+path}' }, argument: { name: 'path', value } }, i),
  ),
);

/** A mutation and the JSON-RPC codes (or HTTP statuses) its class of mistake may produce. */
type Mutation = { kind: string; apply(w: Wire): { headers: Record<string, string>; body: string | Uint8Array }; codes: number[] };
const text = (w: Wire) => JSON.stringify(w.body);
const junk = fc.oneof(fc.string({ maxLength: 50 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }));
const bodyOf = (w: Wire) => w.body as { params: Record<string, unknown> & { _meta: Record<string, unknown> } };

const mutations: fc.Arbitrary<Mutation>[] = [
  fc.constant({ kind: 'none', apply: (w) => ({ headers: w.headers, body: text(w) }), codes: [] }),
  fc.nat().map((cut) => ({ kind: 'truncate', apply: (w) => ({ headers: w.headers, body: text(w).slice(0, cut % Math.max(1, text(w).length - 1)) }), codes: [-32700, -32600] })),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => ({
    kind: 'invalid utf-8',
    apply: (w: Wire) => ({ headers: w.headers, body: new Uint8Array([...Buffer.from(text(w).slice(0, 20)), 0xff, 0xfe, ...bytes]) }),
    codes: [-32700],
  })),
  junk.map((value) => ({ kind: 'retype id', apply: (w) => ({ headers: w.headers, body: JSON.stringify({ ...(w.body as object), id: value }) }), codes: [-32600, 0] })),
  junk.map((value) => ({ kind: 'retype jsonrpc', apply: (w) => ({ headers: w.headers, body: JSON.stringify({ ...(w.body as object), jsonrpc: value }) }), codes: [-32600] })),
  fc.constantFrom('protocolVersion', 'clientCapabilities').map((key) => ({
    kind: `drop _meta ${key}`,
    apply: (w: Wire) => {
      const b = structuredClone(bodyOf(w));
      delete b.params._meta[`io.modelcontextprotocol/${key}`];
      return { headers: w.headers, body: JSON.stringify(b) };
    },
    codes: [-32602],
  })),
  fc.string({ maxLength: 30 }).filter((v) => v.trim() !== '' && !/[^\x20-\x7e]/.test(v)).map((value) => ({
    kind: 'wrong Mcp-Method',
    apply: (w: Wire) => ({ headers: { ...w.headers, 'mcp-method': `${value}x` }, body: text(w) }),
    codes: [-32020],
  })),
  fc.string({ minLength: 1, maxLength: 30 }).map((value) => ({
    kind: 'wrong MCP-Protocol-Version',
    apply: (w: Wire) => ({ headers: { ...w.headers, 'mcp-protocol-version': `=${value.replace(/[^\x21-\x7e]/g, 'x')}` }, body: text(w) }),
    codes: [-32020],
  })),
  fc.constantFrom('=?base64?!!?=', '=?base64?YQ?=', '=?base64?/w==?=', '=?base64??=').map((value) => ({
    kind: 'broken sentinel',
    apply: (w: Wire) => ({ headers: { ...w.headers, 'mcp-name': value }, body: text(w) }),
    codes: [-32020, 0],
  })),
  fc.integer({ min: 65, max: 3000 }).map((depth) => ({
    kind: 'deep nesting',
    apply: (w: Wire) => ({ headers: w.headers, body: text(w).replace('"_meta":', `"deep":${'['.repeat(depth)}${']'.repeat(depth)},"_meta":`) }),
    codes: [-32600],
  })),
  fc.constant({ kind: 'huge string', apply: (w: Wire) => ({ headers: w.headers, body: JSON.stringify({ ...(w.body as object), pad: 'x'.repeat(70_000) }) }), codes: [413] }),
  fc.constantFrom('__proto__', 'constructor', 'prototype').map((key) => ({
    kind: `${key} keys`,
    apply: (w: Wire) => ({ headers: w.headers, body: text(w).replace('"_meta":', `"${key}":{"polluted":true},"_meta":`) }),
    codes: [0, -32602],
  })),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => ({
    kind: 'unicode in params',
    apply: (w: Wire) => ({ headers: w.headers, body: JSON.stringify({ ...(w.body as object), params: { ...bodyOf(w).params, name: s, uri: s } }) }),
    codes: [0, -32602, -32020, -32601],
  })),
  fc.constantFrom('text/plain', 'application/xml', '').map((type) => ({ kind: 'content type', apply: (w: Wire) => ({ headers: { ...w.headers, 'content-type': type }, body: text(w) }), codes: [415] })),
];

type Fetch = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;
const fetchWorker = worker.fetch as unknown as Fetch;

async function send(headers: Record<string, string>, body: string | Uint8Array) {
  const response = await fetchWorker(new Request('http://localhost:8787/mcp', { method: 'POST', headers, body: body as BodyInit }), env, ctx);
  return { status: response.status, text: await response.text() };
}

describe('fuzzing the fetch handler', () => {
  it('answers every mutated request with a spec-shaped 2xx/4xx, and keeps serving valid ones', async () => {
    const seen = new Map<string, Set<number>>();
    const statuses: Record<number, number> = {};
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(valid, fc.oneof(...mutations), async (request, mutation) => {
        const { headers, body } = mutation.apply(request);
        const { status, text: answer } = await send(headers, body);
        requests += 2;
        statuses[status] = (statuses[status] ?? 0) + 1;
        expect(status, `${mutation.kind}: ${answer}`).toBeLessThan(500);
        if (status === 202 || status === 405) return expect(answer).toBe('');
        const reply = JSON.parse(answer) as { jsonrpc: string; id: unknown; result?: unknown; error?: { code: number; message: string } };
        expect(reply.jsonrpc).toBe('2.0');
        expect('result' in reply !== 'error' in reply, answer).toBe(true);
        const code = reply.error ? reply.error.code : 0;
        if (reply.error) expect(Number.isInteger(code) && typeof reply.error.message === 'string').toBe(true);
        if (mutation.kind === 'none') expect(reply.error, answer).toBeUndefined();
        else expect([...mutation.codes, status].some((c) => c === code || c === status), `${mutation.kind} gave ${status} ${answer.slice(0, 200)}`).toBe(true);
        const codes = seen.get(mutation.kind) ?? new Set();
        seen.set(mutation.kind, codes.add(code));
        // the isolate is not degraded: a valid request still succeeds
        const after = await send(request.headers, JSON.stringify(request.body));
        expect(after.status).toBe(200);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(seen.size).toBeGreaterThan(10);
    console.log(`fuzz: ${RUNS} runs (seed ${SEED}), ${requests} requests; mutated answers by status ${JSON.stringify(statuses)}; codes by mutation ${JSON.stringify(Object.fromEntries([...seen].map(([k, v]) => [k, [...v]])))}`);
  }, 120_000);
});
