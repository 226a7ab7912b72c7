/**
 * spec 2026-07-28 basic/patterns (mrtr, progress, subscriptions, cancellation) and the client
 * pages as they bind a server: client/elicitation, client/sampling, client/roots.
 */
import { describe, expect, inject, it } from 'vitest';
import { meta, replyOf, requestsTo, sseMessages } from '../support/mcp';
import { expectErrorSchema, expectSchema } from './expectSchema';

const { post, rpc } = requestsTo(inject('specUrl'));

const call = (name: string, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  rpc('tools/call', { params: { name, arguments: {}, ...extra }, capabilities });

describe('basic/patterns/mrtr', () => {
  it('mrtr: "Servers MUST send server-to-client requests ... using the MRTR pattern": an input_required result, valid per the schema', async () => {
    const { status, body } = await call('ask_form', { elicitation: {} });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create' } },
    });
    expectSchema(body, 'CallToolResultResponse');
    expectSchema(body.result, 'InputRequiredResult');
  });

  it('mrtr: "Servers MUST NOT send InputRequiredResult responses on any other client requests": list and discover never do', async () => {
    for (const method of ['server/discover', 'tools/list', 'resources/list', 'prompts/list']) {
      const { body } = await rpc(method, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
      expect(body.result?.resultType, method).toBe('complete');
    }
  });

  it('mrtr: "Servers MUST include at least one of inputRequests or requestState in every InputRequiredResult"', async () => {
    for (const [name, capabilities] of [
      ['ask_form', { elicitation: {} }],
      ['ask_roots', { roots: {} }],
      ['ask_url', { elicitation: { url: {} } }],
    ] as const) {
      const { body } = await call(name, capabilities);
      expect(body.result?.inputRequests ?? body.result?.requestState, name).toBeDefined();
    }
  });

  it('mrtr: "servers MUST protect its integrity ... and MUST reject state that fails verification"', async () => {
    const first = await call('ask_form', { elicitation: {} });
    const state = String(first.body.result?.requestState);
    // one character of the sealed bytes changed, always to a different one (the last character may carry only padding bits)
    const at = state.length - 2;
    const tampered = `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
    expect(tampered).not.toBe(state);
    const retry = await call(
      'ask_form',
      { elicitation: {} },
      { inputResponses: { name: { action: 'accept', content: { name: 'Eve' } } }, requestState: tampered },
    );
    expect(retry.status).toBe(400);
    expect(retry.body.error?.code).toBe(-32602);
  });

  it('mrtr: "servers SHOULD include ... inside the integrity-protected requestState": state issued for one tool is refused by another', async () => {
    const first = await call('ask_form', { elicitation: {} });
    const retry = await call(
      'ask_url',
      { elicitation: { url: {} } },
      { requestState: first.body.result?.requestState },
    );
    expect(retry.body.error?.code).toBe(-32602);
  });

  it('mrtr: "Servers MUST NOT send an inputRequests that the client has not declared support for": -32021 instead', async () => {
    const { status, body } = await call('ask_roots', { elicitation: {} });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
  });

  it('mrtr: "if a client does not declare support for elicitation, the server MUST NOT include any elicitation/create requests"', async () => {
    const { body } = await call('ask_form', { sampling: {} });
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expectErrorSchema(body, 'MissingRequiredClientCapabilityError');
  });

  it('mrtr: "Servers SHOULD validate that the data provided by the client is a valid InputResponses object"', async () => {
    for (const inputResponses of [[], 'yes', { name: 'not an object' }]) {
      const { status, body } = await call('ask_form', { elicitation: {} }, { inputResponses });
      expect(status).toBe(400);
      expect(body.error?.code).toBe(-32602);
    }
  });

  it('mrtr: "the server SHOULD ignore any information it does not recognize" in InputResponses, and asks again for what is missing', async () => {
    const first = await call('ask_form', { elicitation: {} });
    const { body } = await call(
      'ask_form',
      { elicitation: {} },
      {
        inputResponses: { unrelated: { action: 'accept', content: {} } },
        requestState: first.body.result?.requestState,
      },
    );
    expect(body.result?.resultType).toBe('input_required');
    expect(Object.keys(body.result?.inputRequests ?? {})).toEqual(['name']);
  });
});

describe('client pages, as they bind the server', () => {
  it('client/elicitation: "Servers MUST NOT send elicitation requests with modes that are not supported by the client": no form to a URL-only client', async () => {
    const { status, body } = await call('ask_form', { elicitation: { url: {} } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
  });

  it('client/elicitation: "MUST NOT send elicitation requests with modes that are not supported": no URL request to a form-only client', async () => {
    for (const elicitation of [{}, { form: {} }]) {
      const { body } = await call('ask_url', { elicitation });
      expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
    }
    const { body } = await call('ask_url', { elicitation: { url: {} } });
    expect(body.result?.inputRequests.login).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'url', url: 'https://app.example.com/login' },
    });
    expectSchema(body.result?.inputRequests.login, 'ElicitRequest');
  });

  it('client/elicitation: an empty elicitation capability "is equivalent to declaring support for form mode only"', async () => {
    const { body } = await call('ask_form', { elicitation: {} });
    expect(body.result?.inputRequests.name.params.mode ?? 'form').toBe('form');
    expectSchema(body.result?.inputRequests.name, 'ElicitRequest');
  });

  it('client/sampling: "Servers MUST NOT send tool-enabled sampling requests to Clients that have not declared" sampling.tools', async () => {
    const refused = await call('ask_sampling_tools', { sampling: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: { tools: {} } } },
    });
    const asked = await call('ask_sampling_tools', { sampling: { tools: {} } });
    expect(asked.body.result?.inputRequests.answer.method).toBe('sampling/createMessage');
    expectSchema(asked.body.result?.inputRequests.answer, 'CreateMessageRequest');
  });

  it('client/sampling: "SHOULD NOT use them unless the client declares sampling.context": includeContext thisServer needs it', async () => {
    const refused = await call('ask_sampling_context', { sampling: {} });
    expect(refused.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: { context: {} } } },
    });
    const asked = await call('ask_sampling_context', { sampling: { context: {} } });
    expect(asked.body.result?.inputRequests.answer.params.includeContext).toBe('thisServer');
    expectSchema(asked.body.result?.inputRequests.answer, 'CreateMessageRequest');
  });

  it('client/roots: "Servers SHOULD: Check for roots capability before usage": roots/list only to a client that declared roots', async () => {
    const { body } = await call('ask_roots', { roots: {} });
    expect(body.result?.inputRequests.roots).toMatchObject({ method: 'roots/list' });
    expectSchema(body.result?.inputRequests.roots, 'ListRootsRequest');
  });

  it('client/elicitation: "Servers MUST handle cases where the user declines or cancels": a declined answer is asked again, not an error', async () => {
    const first = await call('ask_form', { elicitation: {} });
    for (const action of ['decline', 'cancel']) {
      const { body } = await call(
        'ask_form',
        { elicitation: {} },
        { inputResponses: { name: { action } }, requestState: first.body.result?.requestState },
      );
      expect(body.result?.resultType, action).toBe('input_required');
    }
  });
});

describe('basic/patterns/progress', () => {
  it('progress: "The progress value MUST increase with each notification" and "Progress notifications MUST stop after completion"', async () => {
    const response = await post('tools/call', {
      params: { name: 'steps', arguments: { count: 4 }, _meta: meta({ progressToken: 'tok' }) },
    });
    const messages = await sseMessages(response);
    const progress = messages
      .filter((m) => m.method === 'notifications/progress')
      .map((m) => m.params?.progress as number);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(messages.at(-1)?.result).toBeDefined();
  });

  it('progress: "Progress notifications MUST only reference tokens that were provided in an active request": none without a token', async () => {
    const response = await post('tools/call', { params: { name: 'steps', arguments: { count: 2 } } });
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect((await replyOf(response)).result?.content[0].text).toBe('2 steps');
  });

  it('progress: "Progress tokens MUST be a string or integer value": another token type is refused with -32602', async () => {
    const { status, body } = await rpc('tools/call', {
      params: { name: 'echo', arguments: { text: 'x' }, _meta: meta({ progressToken: 1.5 }) },
    });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
  });
});

describe('basic/patterns/subscriptions and cancellation', () => {
  it('subscriptions: "MUST send notifications/subscriptions/acknowledged as the first message carrying the subscription ID"', async () => {
    const response = await post('subscriptions/listen', {
      id: 'sub-1',
      params: { notifications: { toolsListChanged: true } },
    });
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    const messages = await sseMessages(response);
    expect(messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
    });
    expectSchema(messages[0], 'SubscriptionsAcknowledgedNotification');
  });

  it('subscriptions: "The server MUST NOT send notification types the client has not explicitly requested": the acknowledged filter is what it honours', async () => {
    const messages = await sseMessages(
      await post('subscriptions/listen', {
        id: 7,
        params: { notifications: { resourceSubscriptions: ['spec://note'] } },
      }),
    );
    expect(messages[0]?.params?.notifications).toEqual({});
    // Only the stream's own messages: the acknowledgement, and the teardown when the server ends it.
    const own = new Set(['notifications/subscriptions/acknowledged', 'notifications/cancelled']);
    expect(messages.filter((m) => m.method !== undefined && !own.has(m.method))).toEqual([]);
  });

  it('subscriptions: "it SHOULD respond to the original subscriptions/listen request with a completion result before closing the stream"', async () => {
    const messages = await sseMessages(await post('subscriptions/listen', { id: 9, params: { notifications: {} } }));
    expect(messages.map((m) => m.method ?? 'result')).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/cancelled',
      'result',
    ]);
    const last = messages.at(-1);
    expect(last).toMatchObject({
      id: 9,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 9 } },
    });
    expectSchema(last, 'SubscriptionsListenResultResponse');
  });

  it('cancellation: "A server MUST send notifications/cancelled referencing a subscriptions/listen request ID when it tears down" the stream', async () => {
    const messages = await sseMessages(
      await post('subscriptions/listen', { id: 'sub-end', params: { notifications: { toolsListChanged: true } } }),
    );
    const cancelled = messages.filter((m) => m.method === 'notifications/cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]?.params).toMatchObject({
      requestId: 'sub-end',
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-end' },
    });
    expectSchema(cancelled[0], 'CancelledNotification');
    // Never for any other purpose: a request answered normally, streamed or not, carries none.
    const streamed = await sseMessages(
      await post('tools/call', {
        params: { name: 'steps', arguments: { count: 2 }, _meta: meta({ progressToken: 1 }) },
      }),
    );
    expect(streamed.some((m) => m.method === 'notifications/cancelled')).toBe(false);
  });

  it('cancellation: "The server MUST treat a client disconnect as cancellation of that request" and sends nothing more for it', async () => {
    const count = async () =>
      Number(
        (await rpc('tools/call', { params: { name: 'cancelled_count', arguments: {} } })).body.result?.content[0].text,
      );
    const before = await count();
    const response = await post('tools/call', {
      params: { name: 'slow', arguments: {}, _meta: meta({ progressToken: 1 }) },
    });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('notifications/progress');
    await reader.cancel();
    let after = before;
    for (let tries = 0; tries < 50 && after === before; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await count();
    }
    expect(after).toBe(before + 1);
  });

  it('cancellation: "Invalid cancellation notifications SHOULD be ignored": unknown and malformed ones get 202', async () => {
    for (const params of [{ requestId: 'never-sent' }, { reason: 'no id' }, {}]) {
      const response = await post('notifications/cancelled', {
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params }),
      });
      expect(response.status).toBe(202);
    }
  });
});
