/** subscriptions/listen (spec 2026-07-28 basic/patterns/subscriptions) on the fixture, which ends streams after 1 s. */
import { describe, expect, it } from 'vitest';
import { fixtureUrl, post, rpc, sseMessages } from '../support/mcp';

describe('subscriptions/listen', () => {
  it('acknowledges first, tags every message with the subscription id, and closes with notifications/cancelled and a result', async () => {
    const started = Date.now();
    const response = await post('subscriptions/listen', {
      url: fixtureUrl(),
      id: 'sub-7',
      params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://locked'] } },
    });
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    expect(response.headers.get('X-Accel-Buffering')).toBe('no');
    const messages = await sseMessages(response);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: {}, _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-7' } },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'sub-7', reason: 'The server ended the subscription', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-7' } },
      },
      {
        jsonrpc: '2.0',
        id: 'sub-7',
        result: {
          resultType: 'complete',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-test-fixture', version: '1.0.0' }, 'io.modelcontextprotocol/subscriptionId': 'sub-7' },
        },
      },
    ]);
  });

  it('answers a listen request without a filter with -32602', async () => {
    const { status, body } = await rpc('subscriptions/listen', { url: fixtureUrl() });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
  });

  it('advertises no listChanged, since nothing it serves changes while a client listens', async () => {
    const { body } = await rpc('server/discover');
    expect(JSON.stringify(body.result?.capabilities)).not.toContain('listChanged');
  });
});
