/** The `HandlerContext` a handler receives: every part works taken apart, as handlers take it. */
import { describe, expect, it } from 'vitest';
import { handlerContext } from '../../../src/mcp/handlerContext';
import type { RequestMeta } from '../../../src/mcp/meta';
import type { McpRequest } from '../../../src/mcp/request';
import { mcpRequest } from '../../support/request';
import type { JSONRPCNotification } from '../../../src/mcp/types';
import type { WorkerEnv } from '../../../src/env';

const meta: RequestMeta = {
  protocolVersion: '2026-07-28',
  clientCapabilities: { elicitation: { form: {} } },
  clientInfo: { name: 'unit-client', version: '1.0.0' },
  progressToken: 'p1',
  logLevel: 'warning',
};

function contextWith(overrides: Partial<McpRequest> = {}, logging = true) {
  const sent: JSONRPCNotification[] = [];
  const request = mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call' }, meta, {
    env: { NAME: 'unit' } as unknown as WorkerEnv,
    notify: (notification) => void sent.push(notification),
    ...overrides,
  });
  return { context: handlerContext(request, { responses: { a: { ok: true } }, state: { step: 2 } }, logging), sent };
}

describe('handlerContext', () => {
  it('describes the client and the round from the request', () => {
    const caller = {
      subject: 'alice',
      kind: 'person' as const,
      scopes: ['mcp:read'],
      claims: { sub: 'alice', email: 'alice@example.com', groups: ['eng'] },
    };
    const { context } = contextWith({ caller });
    const { client, env, inputResponses, state } = context;
    expect(client).toEqual({
      protocolVersion: '2026-07-28',
      capabilities: meta.clientCapabilities,
      info: meta.clientInfo,
    });
    expect(env).toEqual({ NAME: 'unit' });
    expect(inputResponses).toEqual({ a: { ok: true } });
    expect(state).toEqual({ step: 2 });
    expect(context.caller).toEqual(caller);
    expect(context.caller).not.toHaveProperty('props');
  });

  it('has no caller when authorization is off, rather than an empty one', () => {
    expect(contextWith().context.caller).toBeUndefined();
  });

  it('progress, log and can work taken apart, bound to their request', () => {
    const { context, sent } = contextWith();
    const { progress, log, can } = context;
    progress(1, 3, 'first');
    progress(1, 3, 'not increasing: dropped');
    progress(2);
    log('info', 'below the requested level: dropped');
    log('error', { detail: 'sent' }, 'unit');
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 1, total: 3, message: 'first' },
      },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 2 } },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'error', data: { detail: 'sent' }, logger: 'unit' },
      },
    ]);
    expect([can('elicitation.form'), can('elicitation.url'), can('sampling')]).toEqual([true, false, false]);
    // the same function each time it is asked for
    expect(context.progress).toBe(progress);
  });

  it('logs nothing when the server did not declare logging', () => {
    const { context, sent } = contextWith({}, false);
    context.log('emergency', 'dropped');
    expect(sent).toEqual([]);
  });

  it("signal is the call's, and fetch is the global one without a trace context", () => {
    const controller = new AbortController();
    const { context } = contextWith({ signal: controller.signal });
    expect(context.signal).toBe(controller.signal);
    expect(context.fetch).toBe(fetch);
    const traced = contextWith({
      trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    }).context;
    expect(traced.fetch).not.toBe(fetch);
  });
});
