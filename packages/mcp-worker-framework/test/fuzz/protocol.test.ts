/**
 * Property-based fuzzing of the defaults fixture Worker's fetch handler, called in process: generated valid
 * requests for every method, with ids of every allowed shape (integers beyond 2^53, long and
 * unicode strings, negative, zero), then mutations of their headers and bodies. Request logs
 * are on and the runtime's tracing is stood in for, so every request also writes its log line
 * and its span. Properties: never a 5xx; every answer is JSON-RPC (or empty for 202/405); the
 * error code fits the class of mistake; a valid request's answer echoes its id exactly, as its
 * log line does; every log line and span attribute is bounded, its trace context valid; valid
 * requests still succeed after every bad one. Fixed seed here; `npm run fuzz` runs many more
 * (FUZZ_RUNS, FUZZ_SEED).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bounded, MAX_ATTRIBUTE_CHARS } from '../../src/http/observability/requestAttributes';
import { MAX_TRACESTATE_CHARS } from '../../src/mcp/traceContext';
import { ITEM_NAMES } from '../fixtures/resources';
import worker from '../fixtures/defaults.worker';
import type { WorkerEnv } from '../../src/env';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
const env = {
  ALLOWED_ORIGINS: 'http://localhost:*',
  MAX_BODY_BYTES: '65536',
  LISTEN_MAX_SECONDS: '1',
  UPSTREAM_URL: 'http://127.0.0.1:9',
  LEGACY_CLIENTS: 'on',
  MCP_STATE_SECRET: 'fuzz',
  REQUEST_LOGS: 'on',
} as unknown as WorkerEnv;

/** What the runtime's tracing would be handed: every span's attributes, and whether it ended. */
const spans: { attributes: Record<string, unknown>; ended: boolean }[] = [];
const tracing = {
  startSpan() {
    const span = { attributes: {} as Record<string, unknown>, ended: false };
    spans.push(span);
    return {
      isTraced: true,
      setAttributes: (attributes: Record<string, unknown>) => Object.assign(span.attributes, attributes),
      updateName() {},
      setStatus() {},
      end: () => (span.ended = true),
    };
  },
};
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {}, tracing } as unknown as ExecutionContext;

/** The request log lines, kept instead of printed. */
const logged: string[] = [];
beforeAll(() => {
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logged.push(String(line)));
});
afterAll(() => vi.restoreAllMocks());

/** JSON as a client writes it: a BigInt id is an integer of all its digits (beyond what a double holds). */
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;
const json = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? rawJSON(String(v)) : v));

interface Wire {
  headers: Record<string, string>;
  body: unknown;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function wire(method: string, params: Record<string, unknown>, id: Id): Wire {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (name !== undefined && ['tools/call', 'prompts/get', 'resources/read'].includes(method)) {
    headers['mcp-name'] = /^[\x21-\x7e]*$/.test(name) ? name : `=?base64?${Buffer.from(name).toString('base64')}?=`;
  }
  if (method === 'tools/call' && typeof (params.arguments as { region?: unknown })?.region === 'string') {
    headers['mcp-param-region'] = (params.arguments as { region: string }).region;
  }
  return { headers, body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } } };
}

type Id = string | number | bigint;
// spec basic/index, Requests: a string or an integer, of any size or content
const id: fc.Arbitrary<Id> = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
  fc.tuple(fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n }), fc.boolean()).map(([n, negative]) => (negative ? -n : n)),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 4 }), fc.integer({ min: 300, max: 8_000 }))
    .map(([head, n]) => `${head}${'i'.repeat(n)}`),
);
/** What a log line or span says the id is. */
const idText = (i: Id) => bounded(typeof i === 'string' ? i : String(i));
const valid: fc.Arbitrary<Wire> = fc.oneof(
  id.map((i) => wire('server/discover', {}, i)),
  id.map((i) => wire('tools/list', {}, i)),
  fc
    .tuple(id, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer())
    .map(([i, a, b]) => wire('tools/call', { name: 'sum', arguments: { a, b } }, i)),
  fc
    .tuple(id, fc.constantFrom('eu', 'us-east', 'ap'))
    .map(([i, region]) => wire('tools/call', { name: 'routed', arguments: { region } }, i)),
  id.map((i) => wire('resources/list', {}, i)),
  id.map((i) => wire('resources/templates/list', {}, i)),
  id.map((i) => wire('resources/read', { uri: 'test://public-doc' }, i)),
  fc
    .tuple(id, fc.constantFrom(...ITEM_NAMES))
    .map(([i, path]) => wire('resources/read', { uri: `test://items/${path}` }, i)),
  id.map((i) => wire('prompts/list', {}, i)),
  fc
    .tuple(id, fc.string({ minLength: 1, maxLength: 30 }), fc.string({ minLength: 1, maxLength: 30 }))
    .map(([i, name, tone]) => wire('prompts/get', { name: 'greeting', arguments: { name, tone } }, i)),
  fc
    .tuple(id, fc.string({ maxLength: 10 }))
    .map(([i, value]) =>
      wire(
        'completion/complete',
        { ref: { type: 'ref/resource', uri: 'test://items/{+path}' }, argument: { name: 'path', value } },
        i,
      ),
    ),
);

const VALID_TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const traceValue = fc.oneof(
  fc.constant(VALID_TRACEPARENT),
  fc.constantFrom(
    'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
    `k=${'v'.repeat(3_000)}`,
    'not-a-traceparent; injected=1',
    `${VALID_TRACEPARENT}\r\nx-injected: 1`,
  ),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc
    .integer({ min: 1, max: 40 })
    .map((n) => Array.from({ length: n }, (_, i) => `k${i}=${'v'.repeat(i * 7)}`).join(',')),
);
/** A header can carry only visible ASCII, space and tab: anything else becomes "?". */
const headerSafe = (value: string) => value.replace(/[^\x20-\x7e\t]/g, '?').trim();

/** A mutation and the JSON-RPC codes (or HTTP statuses) its class of mistake may produce. */
type Mutation = {
  kind: string;
  apply(w: Wire): { headers: Record<string, string>; body: string | Uint8Array };
  codes: number[];
};
const text = (w: Wire) => json(w.body);
const junk = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);
const bodyOf = (w: Wire) => w.body as { params: Record<string, unknown> & { _meta: Record<string, unknown> } };

const mutations: fc.Arbitrary<Mutation>[] = [
  fc.constant({ kind: 'none', apply: (w) => ({ headers: w.headers, body: text(w) }), codes: [] }),
  fc.nat().map((cut) => ({
    kind: 'truncate',
    apply: (w) => ({ headers: w.headers, body: text(w).slice(0, cut % Math.max(1, text(w).length - 1)) }),
    codes: [-32700, -32600],
  })),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => ({
    kind: 'invalid utf-8',
    apply: (w: Wire) => ({
      headers: w.headers,
      body: new Uint8Array([...Buffer.from(text(w).slice(0, 20)), 0xff, 0xfe, ...bytes]),
    }),
    codes: [-32700],
  })),
  junk.map((value) => ({
    kind: 'retype id',
    apply: (w) => ({ headers: w.headers, body: json({ ...(w.body as object), id: value }) }),
    codes: [-32600, 0],
  })),
  junk.map((value) => ({
    kind: 'retype jsonrpc',
    apply: (w) => ({ headers: w.headers, body: json({ ...(w.body as object), jsonrpc: value }) }),
    codes: [-32600],
  })),
  fc.constantFrom('protocolVersion', 'clientCapabilities').map((key) => ({
    kind: `drop _meta ${key}`,
    apply: (w: Wire) => {
      const b = structuredClone(bodyOf(w));
      delete b.params._meta[`io.modelcontextprotocol/${key}`];
      return { headers: w.headers, body: json({ ...(w.body as object), params: b.params }) };
    },
    codes: [-32602],
  })),
  fc
    .string({ maxLength: 30 })
    .filter((v) => v.trim() !== '' && !/[^\x20-\x7e]/.test(v))
    .map((value) => ({
      kind: 'wrong Mcp-Method',
      apply: (w: Wire) => ({ headers: { ...w.headers, 'mcp-method': `${value}x` }, body: text(w) }),
      codes: [-32020],
    })),
  fc.string({ minLength: 1, maxLength: 30 }).map((value) => ({
    kind: 'wrong MCP-Protocol-Version',
    apply: (w: Wire) => ({
      headers: { ...w.headers, 'mcp-protocol-version': `=${value.replace(/[^\x21-\x7e]/g, 'x')}` },
      body: text(w),
    }),
    codes: [-32020],
  })),
  fc.constantFrom('=?base64?!!?=', '=?base64?YQ?=', '=?base64?/w==?=', '=?base64??=').map((value) => ({
    kind: 'broken sentinel',
    apply: (w: Wire) => ({ headers: { ...w.headers, 'mcp-name': value }, body: text(w) }),
    codes: [-32020, 0],
  })),
  fc.integer({ min: 65, max: 3000 }).map((depth) => ({
    kind: 'deep nesting',
    apply: (w: Wire) => ({
      headers: w.headers,
      body: text(w).replace('"_meta":', `"deep":${'['.repeat(depth)}${']'.repeat(depth)},"_meta":`),
    }),
    codes: [-32600],
  })),
  fc.constant({
    kind: 'huge string',
    apply: (w: Wire) => ({ headers: w.headers, body: json({ ...(w.body as object), pad: 'x'.repeat(70_000) }) }),
    codes: [413],
  }),
  fc.constantFrom('__proto__', 'constructor', 'prototype').map((key) => ({
    kind: `${key} keys`,
    apply: (w: Wire) => ({
      headers: w.headers,
      body: text(w).replace('"_meta":', `"${key}":{"polluted":true},"_meta":`),
    }),
    codes: [0, -32602],
  })),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => ({
    kind: 'unicode in params',
    apply: (w: Wire) => ({
      headers: w.headers,
      body: json({ ...(w.body as object), params: { ...bodyOf(w).params, name: s, uri: s } }),
    }),
    codes: [0, -32602, -32020, -32601],
  })),
  fc.constantFrom('text/plain', 'application/xml', '').map((type) => ({
    kind: 'content type',
    apply: (w: Wire) => ({ headers: { ...w.headers, 'content-type': type }, body: text(w) }),
    codes: [415],
  })),
  // W3C trace context, valid or not, in _meta or the headers: dropped when invalid, never a refusal
  fc.tuple(traceValue, traceValue, fc.boolean()).map(([traceparent, tracestate, inHeaders]) => ({
    kind: 'trace context',
    apply: (w: Wire) =>
      inHeaders
        ? {
            headers: { ...w.headers, traceparent: headerSafe(traceparent), tracestate: headerSafe(tracestate) },
            body: text(w),
          }
        : {
            headers: w.headers,
            body: json({
              ...(w.body as object),
              params: { ...bodyOf(w).params, _meta: { ...bodyOf(w).params._meta, traceparent, tracestate } },
            }),
          },
    codes: [0],
  })),
];

type Fetch = (request: Request, env: WorkerEnv, ctx: ExecutionContext) => Promise<Response>;
const fetchWorker = worker.fetch as unknown as Fetch;

async function send(headers: Record<string, string>, body: string | Uint8Array) {
  // only this request's line and span are kept, so a long `npm run fuzz` stays small
  logged.length = 0;
  spans.length = 0;
  const response = await fetchWorker(
    new Request('http://localhost:8787/mcp', { method: 'POST', headers, body: body as BodyInit }),
    env,
    ctx,
  );
  const answer = { status: response.status, text: await response.text() };
  // REQUEST_LOGS = "on": one line per request, written by the time the answer has been read
  expect(logged, answer.text.slice(0, 200)).toHaveLength(1);
  const line = logged[0]!;
  expect(line.length).toBeLessThan(20 * MAX_ATTRIBUTE_CHARS + MAX_TRACESTATE_CHARS);
  expect(spans).toHaveLength(1);
  const span = spans[0]!;
  expect(span.ended).toBe(true);
  for (const [key, value] of Object.entries(span.attributes)) {
    if (typeof value === 'string')
      expect(value.length, key).toBeLessThanOrEqual(
        key === 'tracestate' ? MAX_TRACESTATE_CHARS : MAX_ATTRIBUTE_CHARS + 1,
      );
  }
  const { traceparent } = span.attributes;
  if (traceparent !== undefined) expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);
  return { ...answer, line: JSON.parse(line) as Record<string, unknown> };
}

describe('fuzzing the fetch handler', () => {
  it('answers every mutated request with a spec-shaped 2xx/4xx, and keeps serving valid ones', async () => {
    const seen = new Map<string, Set<number>>();
    const statuses: Record<number, number> = {};
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(valid, fc.oneof(...mutations), async (request, mutation) => {
        const { headers, body } = mutation.apply(request);
        const { status, text: answer, line } = await send(headers, body);
        requests += 2;
        statuses[status] = (statuses[status] ?? 0) + 1;
        expect(status, `${mutation.kind}: ${answer}`).toBeLessThan(500);
        if (status === 202 || status === 405) return expect(answer).toBe('');
        const reply = JSON.parse(answer) as {
          jsonrpc: string;
          id: unknown;
          result?: unknown;
          error?: { code: number; message: string };
        };
        expect(reply.jsonrpc).toBe('2.0');
        expect('result' in reply !== 'error' in reply, answer).toBe(true);
        const code = reply.error ? reply.error.code : 0;
        if (reply.error) expect(Number.isInteger(code) && typeof reply.error.message === 'string').toBe(true);
        const sentId = (request.body as { id: Id }).id;
        if (mutation.kind === 'none' || mutation.kind === 'trace context') {
          expect(reply.error, answer).toBeUndefined();
          // the same id, digit for digit (spec basic/index), in the answer and in the log line
          expect(answer.startsWith(`{"jsonrpc":"2.0","id":${json(sentId)},`), answer.slice(0, 200)).toBe(true);
          expect(line['jsonrpc.request.id']).toBe(idText(sentId));
        } else
          expect(
            mutation.codes.some((c) => c === code || c === status),
            `${mutation.kind} gave ${status} ${answer.slice(0, 200)}`,
          ).toBe(true);
        const codes = seen.get(mutation.kind) ?? new Set();
        seen.set(mutation.kind, codes.add(code));
        // the isolate is not degraded: a valid request still succeeds
        const after = await send(request.headers, text(request));
        expect(after.status).toBe(200);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(seen.size).toBeGreaterThan(10);
    console.info(
      `fuzz: ${RUNS} runs (seed ${SEED}), ${requests} requests; mutated answers by status ${JSON.stringify(statuses)}; codes by mutation ${JSON.stringify(Object.fromEntries([...seen].map(([k, v]) => [k, [...v]])))}`,
    );
  }, 120_000);
});
