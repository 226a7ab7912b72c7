/**
 * What a callback or a client can make the events extension do, and each bound it meets (spec
 * extensions/events, Error Codes, Webhook Security): a callback that never echoes the challenge,
 * one that redirects, one that answers 413, one that keeps failing (suspended, then reactivated by
 * a refresh); access revoked; the refusals of the URL and the secret; each limit answered -32013
 * naming it, never a 5xx.
 */
import { describe, expect, it } from 'vitest';
import { request } from '../../src/testing';
import { call, settled, type Fixture, until, withReceiver } from './harness';
import { type Receiver, secret, startReceiver } from './receiver';
import { LIMITS } from './limits';

let worker: Fixture;
let receiver: Receiver;
withReceiver((started) => ({ worker, receiver } = started));

const subscribe = (as: string, url: string, params: Record<string, unknown> = {}) =>
  call(worker.mcp, as, 'events/subscribe', {
    name: 'incident.created',
    delivery: { mode: 'webhook', url, secret: secret(1) },
    ...params,
  });
const raise = (incidentId: string, extra: Record<string, unknown> = {}) =>
  call(worker.mcp, 'ops', 'tools/call', { name: 'raise', arguments: { incidentId, severity: 'P1', ...extra } });

describe('callbacks that fail', () => {
  it('refuses a callback that never echoes the challenge with -32015 challenge_failed, and one that redirects with http_4xx, following no redirect', async () => {
    receiver.on('/silent', { secrets: [secret(1)], challenge: 'silent' });
    receiver.on('/moved', { secrets: [secret(1)], challenge: 'redirect' });
    const silent = await subscribe('frank', `${receiver.origin}/silent`);
    expect(silent.status).toBe(400);
    expect(silent.error).toMatchObject({ code: -32015, data: { reason: 'challenge_failed' } });
    const moved = await subscribe('frank', `${receiver.origin}/moved`);
    expect(moved.status).toBe(400);
    expect(moved.error).toMatchObject({ code: -32015, data: { reason: 'http_4xx' } });
    expect(receiver.received.filter((r) => r.path === '/moved/elsewhere')).toEqual([]);
    // Nothing was kept: an event reaches neither.
    await raise('f1');
    await settled(worker, 'frank');
    expect(receiver.events('/silent')).toEqual([]);
    expect(receiver.events('/moved')).toEqual([]);
  });

  it('refuses an unreachable callback with -32015 connection_refused', async () => {
    const closed = await startReceiver();
    const origin = closed.origin;
    await closed.close();
    const refused = await subscribe('frank', `${origin}/nobody`);
    expect(refused.error).toMatchObject({ code: -32015, data: { reason: 'connection_refused' } });
  });

  it('does not retry a delivery answered 413, and goes on with the next', async () => {
    receiver.on('/small', { secrets: [secret(1)], status: 413 });
    await subscribe('gina', `${receiver.origin}/small`);
    await raise('big1');
    await settled(worker, 'gina');
    expect(receiver.events('/small').map((r) => r.status)).toEqual([413]);
    receiver.on('/small', { secrets: [secret(1)] });
    await raise('big2');
    await settled(worker, 'gina');
    expect(receiver.events('/small').map((r) => [r.body.eventId, r.status])).toEqual([
      ['inc-big1', 413],
      ['inc-big2', 204],
    ]);
  });

  it('does not retry a delivery answered 410 (the receiver wants no retry of it), and the subscription goes on', async () => {
    receiver.on('/gone-for-this', { secrets: [secret(1)], status: 410 });
    await subscribe('gus', `${receiver.origin}/gone-for-this`);
    await raise('g410-1');
    await settled(worker, 'gus');
    expect(receiver.events('/gone-for-this').map((r) => [r.body.eventId, r.status])).toEqual([['inc-g410-1', 410]]);
    receiver.on('/gone-for-this', { secrets: [secret(1)] });
    await raise('g410-2');
    await settled(worker, 'gus');
    expect(receiver.events('/gone-for-this').map((r) => [r.body.eventId, r.status])).toEqual([
      ['inc-g410-1', 410],
      ['inc-g410-2', 204],
    ]);
  });

  it('suspends after repeated failures, says so in deliveryStatus with a category only, and a refresh reactivates it and delivers what waited', async () => {
    receiver.on('/down', { secrets: [secret(1)] });
    await subscribe('hank', `${receiver.origin}/down`);
    receiver.on('/down', { secrets: [secret(1)], status: 503 });
    await raise('d1');
    await raise('d2');
    // Two events × attempts, until suspended after `suspendAfterFailures` in a row.
    await until(() => receiver.events('/down').length >= LIMITS.suspendAfterFailures, 'the failures');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const failures = receiver.events('/down').length;
    expect(failures).toBe(LIMITS.suspendAfterFailures);
    receiver.on('/down', { secrets: [secret(1)] });
    const refreshed = await subscribe('hank', `${receiver.origin}/down`);
    expect(refreshed.result?.deliveryStatus).toMatchObject({
      active: false,
      lastError: 'http_5xx',
      lastDeliveryAt: null,
    });
    expect(Date.parse(refreshed.result!.deliveryStatus.failedSince)).toBeLessThanOrEqual(Date.now());
    await settled(worker, 'hank');
    const delivered = receiver.events('/down').filter((r) => r.status === 204);
    expect(delivered.map((r) => r.body.eventId).sort()).toEqual(['inc-d1', 'inc-d2']);
  });

  it('ends a subscription whose principal may no longer see its event type with a signed terminated envelope (-32012)', async () => {
    receiver.on('/flag', { secrets: [secret(1)] });
    const made = await call(worker.mcp, 'ivan', 'events/subscribe', {
      name: 'flagged',
      delivery: { url: `${receiver.origin}/flag`, secret: secret(1) },
    });
    expect(made.result?.id).toBeDefined();
    await call(worker.mcp, 'ivan', 'tools/call', { name: 'show', arguments: { shown: false } });
    try {
      await call(worker.mcp, 'ivan', 'tools/call', { name: 'flag', arguments: { n: 1 } });
      await until(
        () => receiver.received.some((r) => r.path === '/flag' && r.body.type === 'terminated'),
        'the terminated envelope',
      );
      const envelope = receiver.received.find((r) => r.path === '/flag' && r.body.type === 'terminated')!;
      expect(envelope.body).toEqual({
        type: 'terminated',
        error: { code: -32012, message: 'Forbidden', data: { reason: 'access revoked' } },
      });
      expect(envelope.verifiedWith).toEqual([secret(1)]);
      expect(envelope.headers['webhook-id']).toMatch(/^msg_terminated_/);
      expect(receiver.events('/flag')).toEqual([]);
      await settled(worker, 'ivan');
      // The subscription is gone: a refresh is a fresh subscribe, refused while the cause holds.
      const again = await call(worker.mcp, 'ivan', 'events/subscribe', {
        name: 'flagged',
        delivery: { url: `${receiver.origin}/flag`, secret: secret(1) },
      });
      expect(again.error?.code).toBe(-32011);
    } finally {
      await call(worker.mcp, 'ivan', 'tools/call', { name: 'show', arguments: { shown: true } });
    }
  });
});

describe('refusals and limits', () => {
  it('needs an authenticated principal: anonymous is refused before anything else', async () => {
    const response = await fetch(worker.mcp, { method: 'POST' });
    expect(response.status).toBe(401);
  });

  it('refuses an unknown or hidden event type with -32011, a missing scope with 403, and a mode other than webhook with -32014', async () => {
    expect((await call(worker.mcp, 'jo', 'events/subscribe', { name: 'nope', delivery: {} })).error).toMatchObject({
      code: -32011,
      data: { kind: 'event' },
    });
    const scoped = await call(worker.mcp, 'jo', 'events/subscribe', {
      name: 'secret.changed',
      delivery: { url: `${receiver.origin}/x`, secret: secret(1) },
    });
    expect(scoped.status).toBe(403);
    const push = await subscribe('jo', `${receiver.origin}/x`, {
      delivery: { mode: 'push', url: `${receiver.origin}/x`, secret: secret(1) },
    });
    expect(push.status).toBe(400);
    expect(push.error).toMatchObject({ code: -32014, data: { feature: 'deliveryMode', value: 'push' } });
  });

  it('refuses a callback that is not https, or at a private address, and a secret that is not whsec_ of 24 to 64 bytes, with -32602', async () => {
    for (const url of [
      'http://example.com/hook',
      'https://10.0.0.1/hook',
      'https://192.168.1.2/hook',
      'https://169.254.169.254/latest',
      'https://[fd00::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://user:pass@example.com/hook',
      'ftp://example.com/hook',
    ]) {
      const refused = await subscribe('jo', url);
      expect(refused.error?.code, url).toBe(-32602);
    }
    for (const bad of [
      'shh',
      'whsec_!!!',
      `whsec_${Buffer.alloc(16).toString('base64')}`,
      `whsec_${Buffer.alloc(65).toString('base64')}`,
    ]) {
      const refused = await subscribe('jo', `${receiver.origin}/x`, {
        delivery: { url: `${receiver.origin}/x`, secret: bad },
      });
      expect(refused.error?.code, bad).toBe(-32602);
    }
    expect(receiver.received.filter((r) => r.path === '/x')).toEqual([]);
  });

  it('refuses arguments over their bound with -32013 argumentBytes (a 400: the same request never passes), and arguments that break the inputSchema with -32602', async () => {
    const big = await subscribe('jo', `${receiver.origin}/x`, {
      arguments: { note: 'n'.repeat(LIMITS.argumentBytes) },
    });
    expect(big.status).toBe(400);
    expect(big.error).toMatchObject({ code: -32013, data: { limit: 'argumentBytes', max: LIMITS.argumentBytes } });
    const wrong = await subscribe('jo', `${receiver.origin}/x`, { arguments: { severity: 'P9' } });
    expect(wrong.error?.code).toBe(-32602);
  });

  it('holds at most its subscriptions per principal: one more is -32013 subscriptions; a refresh of one held still passes', async () => {
    receiver.on('/many', { secrets: [secret(1)] });
    const url = `${receiver.origin}/many`;
    for (let i = 0; i < LIMITS.subscriptionsPerPrincipal; i++)
      expect((await subscribe('kim', url, { arguments: { note: String(i) } })).result?.id).toBeDefined();
    const over = await subscribe('kim', url, { arguments: { note: 'over' } });
    expect(over.status).toBe(400);
    expect(over.error).toMatchObject({
      code: -32013,
      data: { limit: 'subscriptions', max: LIMITS.subscriptionsPerPrincipal },
    });
    expect((await subscribe('kim', url, { arguments: { note: '0' } })).result?.id).toBeDefined();
    // Another principal has places of its own.
    expect((await subscribe('lee', url)).result?.id).toBeDefined();
  });

  it('sends at most its verification requests per host a minute, whoever asks: one more is -32013 verificationsPerHost', async () => {
    const host = await startReceiver();
    try {
      for (let i = 0; i <= LIMITS.verificationsPerHostPerMinute; i++) host.on(`/v${i}`, { secrets: [secret(1)] });
      for (let i = 0; i < LIMITS.verificationsPerHostPerMinute; i++)
        expect((await subscribe(`v${i}`, `${host.origin}/v${i}`)).result?.id).toBeDefined();
      // A rate: a 429 that says when the host's minute is over.
      const over = await request(
        worker.mcp,
        'events/subscribe',
        {
          name: 'incident.created',
          delivery: { url: `${host.origin}/v${LIMITS.verificationsPerHostPerMinute}`, secret: secret(1) },
        },
        { as: 'vlast', tasks: false },
      );
      expect(over.status).toBe(429);
      const retryAfter = Number(over.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(((await over.json()) as { error: unknown }).error).toMatchObject({
        code: -32013,
        data: { limit: 'verificationsPerHost', max: LIMITS.verificationsPerHostPerMinute },
      });
      expect(host.received.filter((r) => r.body.type === 'verification')).toHaveLength(
        LIMITS.verificationsPerHostPerMinute,
      );
    } finally {
      await host.close();
    }
  });

  it('keeps at most its pending deliveries per subscription, skipping the rest, and says so with a gap envelope once they are sent', async () => {
    receiver.on('/slow', { secrets: [secret(1)] });
    await subscribe('mia', `${receiver.origin}/slow`);
    receiver.on('/slow', { secrets: [secret(1)], status: 503 });
    for (let i = 0; i < LIMITS.pendingPerSubscription + 2; i++) await raise(`p${i}`);
    await until(() => receiver.events('/slow').length > 0, 'a first attempt');
    receiver.on('/slow', { secrets: [secret(1)] });
    await until(() => receiver.received.some((r) => r.path === '/slow' && r.body.type === 'gap'), 'the gap envelope');
    await settled(worker, 'mia');
    const delivered = receiver
      .events('/slow')
      .filter((r) => r.status === 204)
      .map((r) => r.body.eventId);
    expect(delivered.sort()).toEqual(['inc-p0', 'inc-p1', 'inc-p2']);
    const gap = receiver.received.find((r) => r.path === '/slow' && r.body.type === 'gap')!;
    expect(gap.headers['webhook-id']).toMatch(/^msg_gap_/);
    expect(typeof gap.body.cursor).toBe('string');
  });

  it('refuses an emit over the size bound, or one whose data breaks the payloadSchema, and keeps nothing', async () => {
    const big = await raise('huge', { paddingBytes: 300 * 1024 });
    expect(big.result?.isError).toBe(true);
    expect(big.result?.content[0].text).toMatch(/over \d+ bytes/);
    const upstream = await fetch(`${worker.url}/upstream/incident`, {
      method: 'POST',
      body: JSON.stringify({ id: 'bad', severity: 'P9' }),
    });
    expect(upstream.status).toBe(400);
    expect(await upstream.text()).toContain('payloadSchema');
    expect(worker.errorLogs().join('\n')).not.toContain('x'.repeat(100));
  });
});
