/** Progress and log notifications over SSE, and cancellation by closing the stream (spec 2026-07-28 streamable-http). */
import { describe, expect, inject, it } from 'vitest';
import { fixtureUrl, meta, replyOf, requestsTo, sseMessages } from '../support/mcp';

const { post } = requestsTo(fixtureUrl());

const countdown = (steps: number, extraMeta: Record<string, unknown>, delayMs = 5) =>
  post('tools/call', { id: 9, params: { name: 'countdown', arguments: { steps, delayMs }, _meta: meta(extraMeta) } });

describe('streaming', () => {
  it('stays plain JSON when the request asked for neither progress nor logs', async () => {
    const response = await countdown(3, {});
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect((await replyOf(response)).result?.content[0].text).toBe('done after 3 steps');
  });

  it('streams increasing progress echoing the token, then the result', async () => {
    const response = await countdown(3, { progressToken: 'tok-1' });
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    expect(response.headers.get('X-Accel-Buffering')).toBe('no');
    const messages = await sseMessages(response);
    const progress = messages.filter((m: any) => m.method === 'notifications/progress').map((m: any) => m.params);
    expect(progress).toEqual(
      [1, 2, 3].map((p) => ({ progressToken: 'tok-1', progress: p, total: 3, message: `step ${p}` })),
    );
    expect(messages.at(-1)).toMatchObject({ id: 9, result: { content: [{ text: 'done after 3 steps' }] } });
    expect(messages.filter((m: any) => m.method === 'notifications/message')).toEqual([]);
  });

  it('sends log messages only at or above the requested level', async () => {
    const messages = await sseMessages(await countdown(2, { 'io.modelcontextprotocol/logLevel': 'info' }));
    const logs = messages.filter((m: any) => m.method === 'notifications/message').map((m: any) => m.params);
    expect(logs).toEqual([
      { level: 'info', data: { step: 1 } },
      { level: 'info', data: { step: 2 } },
    ]);
  });

  it('aborts the handler when the client closes the stream: its upstream fetch is cancelled', async () => {
    const stats = async () =>
      (await (await fetch(`${inject('upstreamUrl')}/stats`)).json()) as { started: number; abandoned: number };
    const before = await stats();
    const response = await post('tools/call', {
      params: { name: 'slow_upstream', arguments: {}, _meta: meta({ progressToken: 1 }) },
    });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('notifications/progress');
    await expect.poll(async () => (await stats()).started, { timeout: 5000 }).toBe(before.started + 1);
    await reader.cancel();
    await expect.poll(async () => (await stats()).abandoned, { timeout: 5000 }).toBe(before.abandoned + 1);
    expect((await countdown(1, {})).status).toBe(200);
  });
});
