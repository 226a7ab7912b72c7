/**
 * Notifications on `subscriptions/listen` (spec 2026-07-28 basic/patterns/subscriptions), heard
 * by the official SDK v2 client while another client calls the tools that notify, or another
 * Worker sends them: each listener hears what it asked for and may read, tagged with its
 * subscription id, in order, and nothing else.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICES, FLAGGED, item, OPEN, SECRET, SHARDS } from './definition';
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

const touch = (uri: string) => caller.callTool({ name: 'touch', arguments: { uri } });
const change = (list: string) => caller.callTool({ name: 'change', arguments: { list } });
const updated = (uri: string) => ({ method: 'notifications/resources/updated', params: { uri } });
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const instanceOf = async (shard: number) => (await fetch(`${fixture.worker.url}/hub/instance?shard=${shard}`)).text();

/** Runs `test` with a client listening as `token`, closing both after. */
async function listening(
  token: string,
  test: (listener: Client, messages: ReturnType<typeof heard>) => Promise<void>,
): Promise<void> {
  const listener = await clientAs(fixture.url, token);
  try {
    await test(listener, heard(listener));
  } finally {
    await listener.close();
  }
}

/** The messages without their `_meta`, once every one carried the same subscription id. */
function untagged(messages: ReturnType<typeof heard>) {
  const ids = new Set(messages.map(({ params }) => (params._meta as Record<string, unknown>)[SUBSCRIPTION_ID]));
  expect(ids.size).toBe(1);
  return messages.map(({ method, params: { _meta, ...params } }) => ({ method, params }));
}

describe('notifications', () => {
  it('advertises resources.subscribe and listChanged in server/discover, and no extension', async () => {
    await listening('alice', async (listener) => {
      expect(listener.getServerCapabilities()).toMatchObject({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
      });
      expect(listener.getServerCapabilities()?.extensions).toBeUndefined();
    });
  });

  it('tells a client of the initialize era none of it: it has no subscriptions/listen', async () => {
    const legacy = new Client({ name: 'legacy', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await legacy.connect(
      new StreamableHTTPClientTransport(new URL(fixture.url), {
        requestInit: { headers: { Authorization: 'Bearer alice' } },
      }),
    );
    try {
      expect(legacy.getProtocolEra()).toBe('legacy');
      expect(JSON.stringify(legacy.getServerCapabilities())).not.toMatch(/listChanged|subscribe/);
    } finally {
      await legacy.close();
    }
  });

  it('delivers notifications/resources/updated for each subscribed URI, fixed or of a template, and nothing for another', async () => {
    await listening('alice', async (listener, messages) => {
      const subscription = await listener.listen({ resourceSubscriptions: [OPEN, item('7')] });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [OPEN, item('7')] });
      await touch(item('8'));
      await touch(OPEN);
      await touch(item('7'));
      await until(() => messages.length >= 2, 'the listener hears both its URIs');
      // item 8 went first, on the same ordered socket: had it passed, it would be first here.
      expect(untagged(messages)).toEqual([updated(OPEN), updated(item('7'))]);
      await subscription.close();
    });
  });

  it('honours only the URIs the caller may read: its scopes and the resources’ rules decide', async () => {
    await listening('bob', async (listener, messages) => {
      const subscription = await listener.listen({ resourceSubscriptions: [SECRET, ALICES, 'test://nowhere', OPEN] });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [OPEN] });
      await touch(SECRET);
      await touch(ALICES);
      await touch(OPEN);
      await until(() => messages.length >= 1, 'bob hears the open document');
      expect(untagged(messages)).toEqual([updated(OPEN)]);
      await subscription.close();
    });
    await listening('dora;docs:secret', async (listener, messages) => {
      const subscription = await listener.listen({ resourceSubscriptions: [SECRET, ALICES] });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [SECRET] });
      await touch(SECRET);
      await until(() => messages.length >= 1, 'a caller with the scope hears the secret document');
      expect(untagged(messages)).toEqual([updated(SECRET)]);
      await subscription.close();
    });
  });

  it('asks a URI’s rule again at each change: a resource hidden after the stream was acknowledged is no longer heard of', async () => {
    await listening('alice', async (listener, messages) => {
      const subscription = await listener.listen({ resourceSubscriptions: [FLAGGED, OPEN] });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [FLAGGED, OPEN] });
      await touch(FLAGGED);
      await until(() => messages.length >= 1, 'the flagged document is heard while shown');
      await caller.callTool({ name: 'show', arguments: { shown: false } });
      try {
        await touch(FLAGGED);
        await touch(OPEN);
        await until(() => messages.length >= 2, 'the open document is heard');
        expect(untagged(messages)).toEqual([updated(FLAGGED), updated(OPEN)]);
      } finally {
        await caller.callTool({ name: 'show', arguments: { shown: true } });
      }
      await subscription.close();
    });
  });

  it('delivers the list changes a stream asked for, and not the others', async () => {
    await listening('alice', async (listener, messages) => {
      const subscription = await listener.listen({ toolsListChanged: true, promptsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, promptsListChanged: true });
      await change('tools');
      await change('resources');
      await change('prompts');
      await until(() => messages.length >= 2, 'the listener hears both its lists');
      expect(untagged(messages).map(({ method }) => method)).toEqual([
        'notifications/tools/list_changed',
        'notifications/prompts/list_changed',
      ]);
      await subscription.close();
    });
  });

  it('delivers a change notified by another Worker, in another isolate, that binds the same hub', async () => {
    await listening('alice', async (listener, messages) => {
      const subscription = await listener.listen({ resourceSubscriptions: [OPEN] });
      const webhook = await fixture.worker
        .neighbour('mcp-notifications-webhook')
        .fetch(
          new Request('http://webhook.test/webhooks/docs', { method: 'POST', body: JSON.stringify({ uri: OPEN }) }),
          undefined as never,
          undefined as never,
        );
      expect(webhook.status).toBe(202);
      await until(() => messages.length >= 1, 'the listener on the fixture hears the webhook Worker');
      expect(untagged(messages)).toEqual([updated(OPEN)]);
      await subscription.close();
    });
  });

  it('keeps streams open while the hub hibernates: a change wakes the shard, which still holds every socket', async () => {
    await listening('alice', async (listener, messages) => {
      const subscription = await listener.listen({ resourceSubscriptions: [OPEN], toolsListChanged: true });
      const shards = Array.from({ length: SHARDS }, (_, shard) => shard);
      const before = await Promise.all(shards.map(instanceOf));
      for (const shard of shards)
        await fixture.worker.evictDurableObject('MCP_NOTIFICATIONS', { name: `shard:${shard}` });
      await touch(OPEN);
      await change('tools');
      await until(() => messages.length >= 2, 'the listener hears changes after the hub was evicted');
      expect(untagged(messages)).toEqual([updated(OPEN), { method: 'notifications/tools/list_changed', params: {} }]);
      // Each shard is another instance now: what it knew in memory was gone, the sockets were not.
      const after = await Promise.all(shards.map(instanceOf));
      expect(after.filter((instance, shard) => instance === before[shard])).toEqual([]);
      await subscription.close();
    });
  });
});
