/**
 * Traces: one span per MCP request, named and attributed after OpenTelemetry's semantic
 * conventions for MCP, ended when the answer has ended. The local workerd has `ctx.tracing`
 * but traces nothing (its spans say `isTraced: false`), so this test runs the edge in process
 * with a `ctx.tracing` that keeps what the runtime would be handed for a traced request; it
 * also shows the Worker serves where there is no tracing API at all.
 */
import { describe, expect, it, vi } from 'vitest';
import { MAX_ATTRIBUTE_CHARS } from '../../../../src/http/observability/requestAttributes';
import { createRouter } from '../../../../src/http/router';
import { edgeServer } from '../../../fixtures/edge/server';
import { mcpHeaders, meta } from '../../../support/mcp';
import type { WorkerEnv } from '../../../../src/env';

interface Recorded {
  names: string[];
  attributes: Record<string, string | number | boolean>;
  status?: { code: string; message?: string };
  ended: boolean;
}

function recordingContext() {
  const spans: Recorded[] = [];
  const pending: Promise<unknown>[] = [];
  const tracing = {
    startSpan(name: string) {
      const span: Recorded = { names: [name], attributes: {}, ended: false };
      spans.push(span);
      return {
        isTraced: true,
        // Attributes whose value is undefined are not recorded (the runtime's API allows them).
        setAttributes: (attributes: Record<string, string | number | boolean | undefined>) =>
          Object.assign(
            span.attributes,
            Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined)),
          ),
        updateName: (next: string) => span.names.push(next),
        setStatus: (status: { code: string; message?: string }) => (span.status = status),
        end: () => (span.ended = true),
      };
    },
  };
  const ctx = {
    waitUntil: (promise: Promise<unknown>) => pending.push(promise),
    passThroughOnException() {},
    tracing,
  } as unknown as ExecutionContext;
  return { ctx, spans, settled: () => Promise.all(pending) };
}

const env = {
  ALLOWED_ORIGINS: '',
  MAX_BODY_BYTES: '4096',
  MCP_STATE_SECRET: 'trace test',
  REQUEST_LOGS: 'off',
  LEGACY_CLIENTS: 'on',
  AUTH_MODE: 'none',
} as unknown as WorkerEnv;
const router = createRouter(edgeServer);
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

const call = (name: string, ctx: ExecutionContext, extraMeta: Record<string, unknown> = {}) =>
  router.fetch(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: mcpHeaders('tools/call', name),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name, arguments: { n: 2 }, _meta: meta({ traceparent: TRACEPARENT, ...extraMeta }) },
      }),
    }),
    env,
    ctx,
  );

describe('request traces', () => {
  it('records one span per MCP request, named "{method} {tool}", with the MCP and GenAI attributes and the caller\'s trace context', async () => {
    const { ctx, spans } = recordingContext();
    const response = await call('everything', ctx);
    expect(response.status).toBe(200);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ names: ['mcp', 'tools/call everything'], ended: true });
    expect(spans[0]!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'everything',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': '7',
      'http.response.status_code': 200,
      traceparent: TRACEPARENT,
    });
    expect(spans[0]!.attributes).not.toHaveProperty('error.type');
    expect(spans[0]!.status).toBeUndefined();
  });

  it('ends the span of a streamed answer only when the stream ends, with the error of its last event', async () => {
    const { ctx, spans, settled } = recordingContext();
    const response = await call('streams_then_fails', ctx, { progressToken: 1 });
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    expect(spans[0]!.ended).toBe(false);
    await response.text();
    await settled();
    expect(spans[0]).toMatchObject({ ended: true, status: { code: 'error', message: '-32603' } });
    expect(spans[0]!.attributes).toMatchObject({
      'rpc.jsonrpc.error_code': -32603,
      'error.type': '-32603',
      'mcp.stream.ended_by': 'server',
    });
  });

  it('records refusals too: a 415 is a span with the error and no method', async () => {
    const { ctx, spans } = recordingContext();
    const response = await router.fetch(
      new Request('http://localhost/mcp', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' }),
      env,
      ctx,
    );
    expect(response.status).toBe(415);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ names: ['mcp'], ended: true, status: { code: 'error' } });
    expect(spans[0]!.attributes).toMatchObject({ 'http.response.status_code': 415, 'rpc.jsonrpc.error_code': -32600 });
  });

  it('records a message refused after it was read: a header mismatch names the method, id and version the body carried', async () => {
    const { ctx, spans } = recordingContext();
    const response = await router.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { ...mcpHeaders('tools/list'), 'Mcp-Method': 'server/discover' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: meta() } }),
      }),
      env,
      ctx,
    );
    expect(response.status).toBe(400);
    expect(spans[0]).toMatchObject({
      names: ['mcp', 'tools/list'],
      ended: true,
      status: { code: 'error', message: '-32020' },
    });
    expect(spans[0]!.attributes).toMatchObject({
      'mcp.method.name': 'tools/list',
      'jsonrpc.request.id': '5',
      'mcp.protocol.version': '2026-07-28',
      'rpc.jsonrpc.error_code': -32020,
    });
  });

  it('serves where the runtime has no tracing API', async () => {
    const response = await call('everything', {
      waitUntil() {},
      passThroughOnException() {},
    } as unknown as ExecutionContext);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { structuredContent: { n: 2 } } });
  });

  it('records an id beyond 2^53 digit for digit, and answers with it', async () => {
    const { ctx, spans } = recordingContext();
    const id = '12345678901234567890123';
    const response = await router.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: mcpHeaders('tools/list'),
        body: `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":${JSON.stringify({ _meta: meta() })}}`,
      }),
      env,
      ctx,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(new RegExp(`^\\{"jsonrpc":"2\\.0","id":${id},"result"`));
    expect(spans[0]).toMatchObject({ ended: true, attributes: { 'jsonrpc.request.id': id } });
  });

  it('keeps the answer when a finally step throws: the failure is logged, the steps after it still run', async () => {
    const { ctx, spans } = recordingContext();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const logs = vi.spyOn(console, 'log').mockImplementation(() => {
      throw new TypeError('the log line could not be written');
    });
    try {
      const response = await router.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { ...mcpHeaders('tools/list'), Origin: 'https://app.example.com' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta() } }),
        }),
        { ...env, ALLOWED_ORIGINS: 'https://app.example.com', REQUEST_LOGS: 'on' } as WorkerEnv,
        ctx,
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: 3, result: { tools: expect.any(Array) } });
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe('https://app.example.com');
      expect(logs).toHaveBeenCalledOnce();
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/writeRequestLog/), expect.any(TypeError));
      // endTrace, after the step that threw, still closed the span
      expect(spans[0]).toMatchObject({ ended: true, attributes: { 'jsonrpc.request.id': '3' } });
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
  });

  it('bounds every attribute and the span name: a 20,000-character tool name, client name and id', async () => {
    const { ctx, spans } = recordingContext();
    const long = 'n'.repeat(20_000);
    const response = await router.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: mcpHeaders('tools/call', long),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: long,
          method: 'tools/call',
          params: {
            name: long,
            arguments: {},
            _meta: meta({ 'io.modelcontextprotocol/clientInfo': { name: long, version: long } }),
          },
        }),
      }),
      { ...env, MAX_BODY_BYTES: '200000' } as WorkerEnv,
      ctx,
    );
    expect(response.status).toBe(400); // no such tool: -32602
    expect(spans[0]!.attributes['rpc.jsonrpc.error_code']).toBe(-32602);
    const { attributes, names } = spans[0]!;
    expect(attributes['gen_ai.tool.name']).toBe(`${long.slice(0, MAX_ATTRIBUTE_CHARS)}…`);
    for (const [key, value] of Object.entries(attributes))
      expect(String(value).length, key).toBeLessThanOrEqual(MAX_ATTRIBUTE_CHARS + 1);
    expect(names.at(-1)!.length).toBeLessThanOrEqual(2 * MAX_ATTRIBUTE_CHARS + 20);
  });

  it('records only a valid W3C trace context: a malformed traceparent and an oversized tracestate are dropped', async () => {
    const { ctx, spans } = recordingContext();
    await call('everything', ctx, { traceparent: 'not-a-traceparent; injected=1', tracestate: 'a=b' });
    expect(spans[0]!.attributes).not.toHaveProperty('traceparent');
    expect(spans[0]!.attributes).not.toHaveProperty('tracestate');
    const next = recordingContext();
    await call('everything', next.ctx, { tracestate: `k=${'v'.repeat(3_000)}` });
    expect(next.spans[0]!.attributes).toMatchObject({ traceparent: TRACEPARENT });
    expect(next.spans[0]!.attributes).not.toHaveProperty('tracestate');
  });
});
