/** The `HandlerContext` a handler receives: every part works taken apart, as handlers take it. */
import { describe, expect, it } from 'vitest';
import { handlerContext } from '../../src/mcp/context';
import type { CallContext } from '../../src/mcp/handler';
import type { RequestMeta } from '../../src/mcp/meta';
import type { JSONRPCNotification } from '../../src/mcp/types';

const meta: RequestMeta = {
  protocolVersion: '2026-07-28',
  clientCapabilities: { elicitation: { form: {} } },
  clientInfo: { name: 'unit-client', version: '1.0.0' },
  progressToken: 'p1',
  logLevel: 'warning',
};

function contextWith(overrides: Partial<CallContext> = {}, logging = true) {
  const sent: JSONRPCNotification[] = [];
  const call: CallContext = {
    signal: new AbortController().signal,
    env: { NAME: 'unit' } as unknown as Env,
    notify: (notification) => sent.push(notification),
    secret: 'unit secret',
    abort: () => {},
    ...overrides,
  };
  return { context: handlerContext(meta, call, { responses: { a: { ok: true } }, state: { step: 2 } }, logging), sent };
}

describe('handlerContext', () => {
  it('describes the client and the round from the request', () => {
    const { context } = contextWith({ principal: 'alice', scopes: ['mcp:read'] });
    const { client, env, inputResponses, state, principal, scopes } = context;
    expect(client).toEqual({ protocolVersion: '2026-07-28', capabilities: meta.clientCapabilities, info: meta.clientInfo });
    expect(env).toEqual({ NAME: 'unit' });
    expect(inputResponses).toEqual({ a: { ok: true } });
    expect(state).toEqual({ step: 2 });
    expect([principal, scopes]).toEqual(['alice', ['mcp:read']]);
    expect(contextWith().context.scopes).toEqual([]);
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
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 3, message: 'first' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 2 } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: { detail: 'sent' }, logger: 'unit' } },
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

  it('signal is the call\'s, and fetch is the global one without a trace context', () => {
    const controller = new AbortController();
    const { context } = contextWith({ signal: controller.signal });
    expect(context.signal).toBe(controller.signal);
    expect(context.fetch).toBe(fetch);
    const traced = contextWith({ trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } }).context;
    expect(traced.fetch).not.toBe(fetch);
  });
});
