/**
 * Webhook delivery end to end (spec extensions/events, Webhook-Based Delivery, Webhook Security):
 * a client subscribes with a callback on a loopback receiver that verifies every POST with the
 * reference Standard Webhooks library; a tool and a route emit; each event arrives once, after
 * the receiver's failures, signed and shaped as the sketch says.
 */
import { describe, expect, it } from 'vitest';
import { call, principalStorage, settled, type Fixture, until, withReceiver } from './harness';
import { type Receiver, secret } from './receiver';

let worker: Fixture;
let receiver: Receiver;
withReceiver((started) => ({ worker, receiver } = started));

const subscribe = (as: string, path: string, params: Record<string, unknown> = {}) =>
  call(worker.mcp, as, 'events/subscribe', {
    name: 'incident.created',
    arguments: {},
    delivery: { mode: 'webhook', url: `${receiver.origin}${path}`, secret: secret(1) },
    ...params,
  });

describe('webhook delivery', () => {
  it('verifies the callback within events/subscribe, then delivers what a tool and a route emit, each once, after the receiver failed the first attempts', async () => {
    receiver.on('/alice/p1', { secrets: [secret(1)], failFirst: 2 });
    const subscribed = await subscribe('alice', '/alice/p1', { arguments: { severity: 'P1' }, ttlMs: 600_000 });
    expect(subscribed.error).toBeUndefined();
    const { id, refreshBefore, cursor, truncated } = subscribed.result!;
    expect(id).toMatch(/^sub_[0-9a-f]{32}$/);
    expect(Date.parse(refreshBefore)).toBeGreaterThan(Date.now());
    expect(Date.parse(refreshBefore)).toBeLessThanOrEqual(Date.now() + 600_000);
    expect(typeof cursor).toBe('string');
    expect(truncated).toBe(false);
    // The challenge came first, signed and carrying the subscription's id.
    const [challenge] = receiver.received.filter((r) => r.path === '/alice/p1');
    expect(challenge?.body.type).toBe('verification');
    expect(challenge?.headers['x-mcp-subscription-id']).toBe(id);
    expect(challenge?.verifiedWith).toEqual([secret(1)]);

    const raised = await call(worker.mcp, 'alice', 'tools/call', {
      name: 'raise',
      arguments: { incidentId: '1', severity: 'P1', reporter: 'ada' },
    });
    expect(raised.result?.isError).toBeFalsy();
    await call(worker.mcp, 'alice', 'tools/call', { name: 'raise', arguments: { incidentId: '2', severity: 'P2' } });
    for (let i = 0; i < 2; i++) {
      const upstream = await fetch(`${worker.url}/upstream/incident`, {
        method: 'POST',
        body: JSON.stringify({ id: 'up-3', severity: 'P1' }),
      });
      expect(upstream.status).toBe(202);
    }
    await call(worker.mcp, 'alice', 'tools/call', { name: 'raise', arguments: { incidentId: 'last', severity: 'P1' } });
    const taken = () => receiver.events('/alice/p1').filter((r) => r.status === 204);
    await until(() => taken().length >= 3, 'three events arrive');
    // Retries may reorder them: the last one emitted is waited for as well, then nothing more comes.
    await until(() => taken().some((r) => r.body.eventId === 'inc-last'), 'the last event arrives');
    await settled(worker, 'alice');
    const accepted = receiver.events('/alice/p1').filter((r) => r.status === 204);
    expect(accepted.map((r) => r.body.eventId).sort()).toEqual(['inc-1', 'inc-last', 'up-3']);
    expect(receiver.events('/alice/p1').filter((r) => r.status === 503)).toHaveLength(2);
    for (const delivery of receiver.events('/alice/p1')) {
      expect(delivery.verifiedWith).toEqual([secret(1)]);
      expect(delivery.headers['webhook-id']).toBe(delivery.body.eventId);
      expect(delivery.headers['x-mcp-subscription-id']).toBe(id);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(Object.keys(delivery.body).sort()).toEqual(['cursor', 'data', 'eventId', 'name', 'timestamp']);
      expect(delivery.body.name).toBe('incident.created');
    }
    const first = accepted.find((r) => r.body.eventId === 'inc-1')!;
    expect(first.body.data).toEqual({ incidentId: '1', severity: 'P1', reporter: 'ada' });
  });

  it('shapes each event for its subscription (match, transform), and a second principal never sees the first one’s subscriptions or deliveries', async () => {
    receiver.on('/shared', { secrets: [secret(1), secret(2)] });
    const alice = await subscribe('alice', '/shared', { arguments: { redact: true } });
    const bob = await subscribe('bob', '/shared', {
      delivery: { url: `${receiver.origin}/shared`, secret: secret(2) },
    });
    expect(alice.result?.id).not.toBe(bob.result?.id);
    // Verification is cached per principal and URL: each was challenged once.
    const challenges = receiver.received.filter((r) => r.path === '/shared' && r.body.type === 'verification');
    expect(challenges.map((r) => r.headers['x-mcp-subscription-id']).sort()).toEqual(
      [alice.result!.id, bob.result!.id].sort(),
    );
    // Bob cannot remove Alice's: the key has the principal in it.
    const removed = await call(worker.mcp, 'bob', 'events/unsubscribe', {
      name: 'incident.created',
      arguments: { redact: true },
      delivery: { url: `${receiver.origin}/shared` },
    });
    expect(removed.error?.code).toBe(-32011);
    expect(removed.error?.data).toEqual({ kind: 'subscription' });
    await call(worker.mcp, 'carol', 'tools/call', {
      name: 'raise',
      arguments: { incidentId: 's1', severity: 'P3', reporter: 'ada' },
    });
    await until(() => receiver.events('/shared').length >= 2, 'both deliveries');
    await Promise.all([settled(worker, 'alice'), settled(worker, 'bob')]);
    const byId = Object.fromEntries(receiver.events('/shared').map((r) => [r.headers['x-mcp-subscription-id'], r]));
    expect(Object.keys(byId).sort()).toEqual([alice.result!.id, bob.result!.id].sort());
    expect(byId[alice.result!.id]!.body.data.reporter).toBe('redacted');
    expect(byId[alice.result!.id]!.verifiedWith).toEqual([secret(1)]);
    expect(byId[bob.result!.id]!.body.data.reporter).toBe('ada');
    expect(byId[bob.result!.id]!.verifiedWith).toEqual([secret(2)]);
    expect(receiver.events('/shared')).toHaveLength(2);
  });

  it('refreshes in place: the same id, the TTL granted anew, a rotated secret signing beside the old one', async () => {
    receiver.on('/rotate', { secrets: [secret(3), secret(4)] });
    const first = await subscribe('alice', '/rotate', {
      delivery: { url: `${receiver.origin}/rotate`, secret: secret(3) },
      ttlMs: 5_000,
    });
    const again = await subscribe('alice', '/rotate', {
      delivery: { url: `${receiver.origin}/rotate`, secret: secret(4) },
      ttlMs: 120_000,
    });
    expect(again.result?.id).toBe(first.result?.id);
    // Every answer, a refresh's too, carries id, refreshBefore, cursor and truncated.
    for (const answer of [first.result, again.result])
      for (const key of ['id', 'refreshBefore', 'cursor', 'truncated']) expect(answer).toHaveProperty(key);
    expect(again.result?.truncated).toBe(false);
    expect(Date.parse(again.result!.refreshBefore)).toBeGreaterThan(Date.parse(first.result!.refreshBefore));
    expect(again.result?.deliveryStatus).toEqual({ active: true, lastDeliveryAt: null, lastError: null });
    // One challenge: the refresh is for a URL this principal verified.
    expect(receiver.received.filter((r) => r.path === '/rotate' && r.body.type === 'verification')).toHaveLength(1);
    await call(worker.mcp, 'alice', 'tools/call', { name: 'raise', arguments: { incidentId: 'r1', severity: 'P1' } });
    await until(() => receiver.events('/rotate').length === 1, 'the delivery');
    const [delivery] = receiver.events('/rotate');
    expect(delivery!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(delivery!.verifiedWith.sort()).toEqual([secret(3), secret(4)].sort());
  });

  it('uses the callback URL exactly as given: its query string is part of the key, and deliveries go to it', async () => {
    receiver.on('/q?tenant=a', { secrets: [secret(1)] });
    receiver.on('/q?tenant=b', { secrets: [secret(1)] });
    const a = await subscribe('quinn', '/q?tenant=a');
    const b = await subscribe('quinn', '/q?tenant=b');
    expect(a.result?.id).toMatch(/^sub_/);
    expect(b.result?.id).toMatch(/^sub_/);
    expect(a.result?.id).not.toBe(b.result?.id);
    // Each URL was verified on its own, at the URL as given.
    for (const path of ['/q?tenant=a', '/q?tenant=b'])
      expect(receiver.received.filter((r) => r.path === path && r.body.type === 'verification')).toHaveLength(1);
    await call(worker.mcp, 'quinn', 'tools/call', { name: 'raise', arguments: { incidentId: 'q1', severity: 'P3' } });
    await until(
      () => receiver.events('/q?tenant=a').length === 1 && receiver.events('/q?tenant=b').length === 1,
      'both',
    );
    expect(receiver.events('/q?tenant=a')[0]!.headers['x-mcp-subscription-id']).toBe(a.result!.id);
    expect(receiver.events('/q?tenant=b')[0]!.headers['x-mcp-subscription-id']).toBe(b.result!.id);
    // Unsubscribing one leaves the other.
    const removed = await call(worker.mcp, 'quinn', 'events/unsubscribe', {
      name: 'incident.created',
      arguments: {},
      delivery: { url: `${receiver.origin}/q?tenant=a` },
    });
    expect(removed.result).toBeDefined();
    expect(
      (
        await call(worker.mcp, 'quinn', 'events/unsubscribe', {
          name: 'incident.created',
          arguments: {},
          delivery: { url: `${receiver.origin}/q?tenant=b` },
        })
      ).result,
    ).toBeDefined();
  });

  it('grants at least the floor and at most what was asked, and a subscription that is not refreshed expires', async () => {
    receiver.on('/short', { secrets: [secret(1)] });
    const asked = Date.now();
    const short = await subscribe('dave', '/short', { ttlMs: 10 });
    const granted = Date.parse(short.result!.refreshBefore) - asked;
    expect(granted).toBeGreaterThanOrEqual(1_000 - 50);
    expect(granted).toBeLessThan(60_000);
    const storage = await principalStorage(worker, 'dave');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await call(worker.mcp, 'dave', 'tools/call', { name: 'raise', arguments: { incidentId: 'x1', severity: 'P1' } });
    const deadline = Date.now() + 10_000;
    while ((await storage.exec('SELECT id FROM subscriptions')).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await storage.exec('SELECT id FROM subscriptions')).toEqual([]);
    expect(receiver.events('/short')).toEqual([]);
    // Refreshed after it lapsed, it is made again (and active).
    const back = await subscribe('dave', '/short', { ttlMs: 60_000 });
    expect(back.result?.id).toBe(short.result?.id);
    expect(back.result?.deliveryStatus).toBeUndefined();
  });

  it('unsubscribes by the key, after which nothing is delivered; twice is -32011', async () => {
    receiver.on('/gone', { secrets: [secret(1)] });
    receiver.on('/kept', { secrets: [secret(1)] });
    await subscribe('erin', '/gone');
    await subscribe('erin', '/kept');
    const key = { name: 'incident.created', arguments: {}, delivery: { url: `${receiver.origin}/gone` } };
    expect((await call(worker.mcp, 'erin', 'events/unsubscribe', key)).result).toBeDefined();
    expect((await call(worker.mcp, 'erin', 'events/unsubscribe', key)).error?.code).toBe(-32011);
    await call(worker.mcp, 'erin', 'tools/call', { name: 'raise', arguments: { incidentId: 'g1', severity: 'P1' } });
    await until(() => receiver.events('/kept').length === 1, 'the subscription kept gets it');
    await settled(worker, 'erin');
    expect(receiver.events('/gone')).toEqual([]);
  });

  it('keeps subscriptions through a restart: they are stored, and delivery goes on without a new subscribe', async () => {
    receiver.on('/durable', { secrets: [secret(1)] });
    const made = await subscribe('nina', '/durable');
    await worker.restart();
    await call(worker.mcp, 'nina', 'tools/call', {
      name: 'raise',
      arguments: { incidentId: 'after-restart', severity: 'P2' },
    });
    await until(() => receiver.events('/durable').length === 1, 'the delivery after the restart');
    expect(receiver.events('/durable')[0]!.headers['x-mcp-subscription-id']).toBe(made.result!.id);
    expect(receiver.received.filter((r) => r.path === '/durable' && r.body.type === 'verification')).toHaveLength(1);
  });

  it('takes an eventId emitted again (an upstream that retried its webhook) for the same event: delivered once', async () => {
    receiver.on('/dedup', { secrets: [secret(1)] });
    await subscribe('olga', '/dedup');
    const send = () =>
      fetch(`${worker.url}/upstream/incident`, {
        method: 'POST',
        body: JSON.stringify({ id: 'up-dup', severity: 'P1' }),
      });
    expect((await send()).status).toBe(202);
    await until(() => receiver.events('/dedup').length === 1, 'the first delivery');
    await settled(worker, 'olga');
    expect((await send()).status).toBe(202);
    await call(worker.mcp, 'olga', 'tools/call', {
      name: 'raise',
      arguments: { incidentId: 'after-dup', severity: 'P1' },
    });
    await until(() => receiver.events('/dedup').some((r) => r.body.eventId === 'inc-after-dup'), 'the next event');
    await settled(worker, 'olga');
    expect(receiver.events('/dedup').map((r) => r.body.eventId)).toEqual(['up-dup', 'inc-after-dup']);
  });
});
