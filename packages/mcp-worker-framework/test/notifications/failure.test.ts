/**
 * When the hub fails (docs/notifications.md, "When the hub fails"): a hub that restarts ends its
 * streams gracefully, so clients reopen them; a stream ends when its caller's token expires; a
 * change the hub cannot take is an error its notifier sees; a listen no shard takes is refused.
 * Its own fixture: the last tests leave the hub out of reach.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsTo, sseMessages } from '../support/mcp';
import { OPEN, SHARDS } from './definition';
import { clientAs, type Fixture, heard, startFixture, until } from './harness';

let fixture: Fixture;
let caller: Client;
beforeAll(async () => {
  fixture = await startFixture();
  caller = await clientAs(fixture.url, 'carol');
});
afterAll(async () => {
  await caller?.close();
  await fixture?.worker.dispose();
});

const hub = (path: string) => fetch(`${fixture.worker.url}/hub/${path}`, { method: 'POST' });
const touch = (uri: string) => caller.callTool({ name: 'touch', arguments: { uri } });
const post: ReturnType<typeof requestsTo>['post'] = (method, call) => requestsTo(fixture.url).post(method, call);
const rpc: ReturnType<typeof requestsTo>['rpc'] = (method, call) => requestsTo(fixture.url).rpc(method, call);
const asAlice = { Authorization: 'Bearer alice' };

describe('when the hub fails', () => {
  it('ends every stream gracefully when the hub restarts (notifications/cancelled, then the result), and a reopened one hears again', async () => {
    const listener = await clientAs(fixture.url, 'alice');
    const messages = heard(listener);
    try {
      const subscription = await listener.listen({ resourceSubscriptions: [OPEN] });
      const raw = await post('subscriptions/listen', {
        id: 'raw-1',
        params: { notifications: { toolsListChanged: true } },
        headers: asAlice,
      });
      const wire = sseMessages(raw);
      expect((await hub('restart')).status).toBe(204);
      expect((await wire).map((m) => m.method ?? m.id)).toEqual([
        'notifications/subscriptions/acknowledged',
        'notifications/cancelled',
        'raw-1',
      ]);
      // The official client (2.4) settles on the notifications/cancelled it reads first: "remote", re-listen.
      expect(await subscription.closed).not.toBe('local');
      const reopened = await listener.listen({ resourceSubscriptions: [OPEN] });
      await touch(OPEN);
      await until(() => messages.length >= 1, 'the reopened stream hears the change');
      await reopened.close();
    } finally {
      await listener.close();
    }
  });

  it('ends a stream gracefully when its caller’s token expires, so the client reopens it with a new token, decided afresh', async () => {
    const expiring = `erin;;${Math.floor(Date.now() / 1000) + 2}`;
    const raw = await post('subscriptions/listen', {
      id: 'expiring',
      params: { notifications: { resourceSubscriptions: [OPEN] } },
      headers: { Authorization: `Bearer ${expiring}` },
    });
    expect((await sseMessages(raw)).map((m) => m.method ?? m.id)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/cancelled',
      'expiring',
    ]);
  });

  it('makes notify throw when a shard does not take the change: the tool fails with -32603, the webhook answers 503', async () => {
    expect((await hub('refuse?shard=1')).status).toBe(204);
    const { body } = await rpc('tools/call', { params: { name: 'touch', arguments: { uri: OPEN } }, headers: asAlice });
    expect(body.error?.code).toBe(-32603);
    const webhook = await fixture.worker
      .neighbour('mcp-notifications-webhook')
      .fetch(
        new Request('http://webhook.test/webhooks/docs', { method: 'POST', body: JSON.stringify({ uri: OPEN }) }),
        undefined as never,
        undefined as never,
      );
    expect(webhook.status).toBe(503);
    expect(fixture.worker.errorLogs().join('\n')).toMatch(/1 of 2 hub shards did not take the change/);
  });

  it('refuses a listen (-32603) that no hub shard takes, rather than acknowledge a stream that would hear nothing', async () => {
    for (let shard = 0; shard < SHARDS; shard++) expect((await hub(`refuse?shard=${shard}`)).status).toBe(204);
    const { body } = await rpc('subscriptions/listen', {
      params: { notifications: { resourceSubscriptions: [OPEN] } },
      headers: asAlice,
    });
    expect(body.error?.code).toBe(-32603);
    // A stream that asks for nothing the hub carries needs no shard: it is acknowledged, with nothing honoured.
    const quiet = await post('subscriptions/listen', {
      params: { notifications: { resourceSubscriptions: ['test://nowhere'] } },
      headers: asAlice,
    });
    const reader = quiet.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toContain('"notifications":{}');
    await reader.cancel();
  });
});
