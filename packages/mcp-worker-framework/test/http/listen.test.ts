/**
 * subscriptions/listen (spec 2026-07-28 basic/patterns/subscriptions) on the fixture, which ends
 * streams after 1 s and holds 2 at once (LISTEN_MAX_STREAMS), 1 per client. The tests that
 * open streams live in this one file, so no other file's stream takes a place meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { fixtureUrl, requestsTo, sseMessages } from '../support/mcp';

const { post, rpc } = requestsTo(fixtureUrl());

describe('subscriptions/listen', () => {
  it('acknowledges first, tags every message with the subscription id, and closes with notifications/cancelled and a result', async () => {
    const started = Date.now();
    const response = await post('subscriptions/listen', {
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
        params: {
          requestId: 'sub-7',
          reason: 'The server ended the subscription',
          _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-7' },
        },
      },
      {
        jsonrpc: '2.0',
        id: 'sub-7',
        result: {
          resultType: 'complete',
          _meta: {
            'io.modelcontextprotocol/serverInfo': { name: 'mcp-test-fixture', version: '1.0.0' },
            'io.modelcontextprotocol/subscriptionId': 'sub-7',
          },
        },
      },
    ]);
  });

  it('answers a listen request without a filter with -32602', async () => {
    const { status, body } = await rpc('subscriptions/listen', {});
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
  });

  it('refuses a listen whose id is longer than 256 characters of JSON with -32602 and HTTP 400, before any stream opens', async () => {
    // Every message of the stream echoes the id: a megabyte one would make each event a megabyte
    // (test/unit/mcp/methods/listen.test.ts; this fixture takes bodies of 1 KiB at most).
    for (const id of ['i'.repeat(255), 'i'.repeat(600)]) {
      const { status, headers, body } = await rpc('subscriptions/listen', { id, params: { notifications: {} } });
      expect(status).toBe(400);
      expect(headers.get('Content-Type')).toBe('application/json');
      expect(body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/at most 256 characters/) });
      expect(JSON.stringify(body).length).toBeLessThan(id.length + 1_000);
    }
    // At the bound it is served, and its place is free again once it ends.
    const served = await post('subscriptions/listen', { id: 'i'.repeat(254), params: { notifications: {} } });
    expect(served.status).toBe(200);
    await served.text();
  });

  it('advertises no listChanged, since nothing it serves changes while a client listens', async () => {
    const { body } = await rpc('server/discover');
    expect(JSON.stringify(body.result?.capabilities)).not.toContain('listChanged');
  });

  /** Opens a stream as the client at `address` (Cloudflare's CF-Connecting-IP: the client key when no one is signed in). */
  const open = (address: string) =>
    post('subscriptions/listen', { params: { notifications: {} }, headers: { 'CF-Connecting-IP': address } });

  it('bounds the streams an isolate keeps open, with 429 and Retry-After past the limit', async () => {
    const [first, second] = await Promise.all([open('203.0.113.1'), open('203.0.113.2')]);
    const third = await open('203.0.113.3');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(third.status).toBe(429);
    expect(third.headers.get('Retry-After')).toBeTruthy();
    expect(((await third.json()) as { error: { code: number } }).error.code).toBe(-32600);
    await Promise.all([first.text(), second.text()]); // they end after the fixture's 1 s
    const later = await open('203.0.113.3');
    expect(later.status).toBe(200);
    await later.text();
  });

  it('gives one client at most its share (a quarter of the limit, at least 1): past it, 429 with Retry-After, while another client still gets a stream', async () => {
    const mine = await open('198.51.100.7');
    expect(mine.status).toBe(200);
    const again = await open('198.51.100.7');
    expect(again.status).toBe(429);
    expect(again.headers.get('Retry-After')).toBeTruthy();
    expect(((await again.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/per client/),
    });
    const theirs = await open('198.51.100.8');
    expect(theirs.status).toBe(200);
    await Promise.all([mine.text(), theirs.text()]);
    const later = await open('198.51.100.7'); // its place is free again once its stream ended
    expect(later.status).toBe(200);
    await later.text();
  });
});
