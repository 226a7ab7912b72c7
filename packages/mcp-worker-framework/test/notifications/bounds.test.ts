/**
 * What one listener or one notifier can make the hub hold or do (docs/notifications.md, "Limits"):
 * a stream's URIs, bounded in number and length, refused with -32602 before any shard is
 * addressed; a flood of one change, sent to a listener at most once per window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_LIMITS } from '../../src/notifications/notificationLimits';
import { requestsTo } from '../support/mcp';
import { item, OPEN } from './definition';
import { clientAs, type Fixture, heard, startFixture, until } from './harness';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture?.worker.dispose());

const asAlice = { Authorization: 'Bearer alice' };
const listen = (resourceSubscriptions: unknown) =>
  requestsTo(fixture.url).rpc('subscriptions/listen', {
    params: { notifications: { resourceSubscriptions } },
    headers: asAlice,
  });

describe('notification limits', () => {
  it(`refuses more than ${NOTIFICATION_LIMITS.urisPerStream} URIs in one stream with -32602`, async () => {
    const uris = Array.from({ length: NOTIFICATION_LIMITS.urisPerStream + 1 }, (_, i) => item(String(i)));
    const { status, body } = await listen(uris);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/more than 100 URIs/) });
  });

  it(`refuses a URI longer than ${NOTIFICATION_LIMITS.uriChars} characters, and URIs that are not an array of strings, with -32602`, async () => {
    for (const uris of [[item('x'.repeat(NOTIFICATION_LIMITS.uriChars))], OPEN, [OPEN, 7]]) {
      const { status, body } = await listen(uris);
      expect(status).toBe(400);
      expect(body.error?.code).toBe(-32602);
    }
  });

  it('sends a flood of one change to a listener at most once per window, and the last of it always', async () => {
    const listener = await clientAs(fixture.url, 'alice');
    const messages = heard(listener);
    const notifier = await clientAs(fixture.url, 'carol');
    try {
      const subscription = await listener.listen({ resourceSubscriptions: [OPEN, item('sentinel')] });
      const calls = 40;
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: calls }, () => notifier.callTool({ name: 'touch', arguments: { uri: OPEN } })),
      );
      const elapsed = Date.now() - started;
      expect(outcomes.every((outcome) => !outcome.isError)).toBe(true);
      // Every touch settled once its fan-out was taken by the shards: the sentinel, sent after, comes after all of them.
      await notifier.callTool({ name: 'touch', arguments: { uri: item('sentinel') } });
      await until(() => messages.some(({ params }) => params.uri === item('sentinel')), 'the sentinel arrives');
      const floods = messages.filter(({ params }) => params.uri === OPEN).length;
      // One at once, then at most one per window that elapsed while the calls were settling.
      expect(floods).toBeGreaterThanOrEqual(1);
      expect(floods).toBeLessThanOrEqual(2 + Math.floor(elapsed / NOTIFICATION_LIMITS.coalesceMs));
      await subscription.close();
    } finally {
      await listener.close();
      await notifier.close();
    }
  });
});
