/**
 * A webhook subscription's cursor (spec extensions/events, Subscribing: `cursor`, `maxAgeMs`;
 * Cursor Lifecycle, Gaps and `truncated`): a new subscription with a cursor is given what came
 * after it, from the type's ring (an emit-only type) or from its `check` (an upstream with a
 * history), bounded, and `truncated` says when it could not; a subscription to a type with
 * `check` is delivered what `check` finds, asked on a timer and at each emit of the type.
 */
import { describe, expect, it } from 'vitest';
import { call, settled, type Fixture, until, withReceiver } from './harness';
import { LIMITS } from './limits';
import { type Receiver, secret } from './receiver';

let worker: Fixture;
let receiver: Receiver;
withReceiver((started) => ({ worker, receiver } = started));

const key = (path: string, name = 'incident.created', args: Record<string, unknown> = {}) => ({
  name,
  arguments: args,
  delivery: { url: `${receiver.origin}${path}`, secret: secret(1) },
});
const subscribe = (as: string, path: string, params: Record<string, unknown> = {}, name?: string) =>
  call(worker.mcp, as, 'events/subscribe', { ...key(path, name), ...params });
const unsubscribe = (as: string, path: string, name?: string) =>
  call(worker.mcp, as, 'events/unsubscribe', key(path, name));
const raise = (incidentId: string) =>
  call(worker.mcp, 'ops', 'tools/call', { name: 'raise', arguments: { incidentId, severity: 'P2' } });
const ticket = (id: string, quiet = false) =>
  call(worker.mcp, 'ops', 'tools/call', { name: 'ticket', arguments: { id, title: `t ${id}`, quiet } });
const ids = (path: string) => receiver.events(path).map((r) => r.body.eventId);

describe('a new webhook subscription to an emit-only type, with a cursor', () => {
  it('is given what the ring kept after the cursor, once, then what comes; its cursor is the one before them', async () => {
    receiver.on('/ring', { secrets: [secret(1)] });
    const first = await subscribe('rita', '/ring');
    const from = first.result!.cursor as string;
    expect(await unsubscribe('rita', '/ring')).toMatchObject({ result: {} });
    await raise('ring-1');
    await raise('ring-2');
    const again = await subscribe('rita', '/ring', { cursor: from });
    expect(again.result).toMatchObject({ truncated: false, cursor: from });
    await raise('ring-3');
    await until(() => ids('/ring').length >= 3, 'the replayed events and the next');
    await settled(worker, 'rita');
    expect(ids('/ring').sort()).toEqual(['inc-ring-1', 'inc-ring-2', 'inc-ring-3']);
    // Each carries a watermark: never past an event not yet delivered.
    for (const delivery of receiver.events('/ring')) expect(typeof delivery.body.cursor).toBe('string');
  });

  it(`replays at most ${LIMITS.pendingPerSubscription} (the latest) and says truncated; a cursor of another epoch, or a maxAgeMs floor past the events, says truncated too`, async () => {
    receiver.on('/many', { secrets: [secret(1)] });
    const first = await subscribe('ruth', '/many');
    await unsubscribe('ruth', '/many');
    const raised = Array.from({ length: LIMITS.pendingPerSubscription + 2 }, (_, i) => `many-${i}`);
    for (const id of raised) await raise(id);
    const again = await subscribe('ruth', '/many', { cursor: first.result!.cursor });
    expect(again.result?.truncated).toBe(true);
    await until(() => ids('/many').length >= LIMITS.pendingPerSubscription, 'the replay');
    await settled(worker, 'ruth');
    expect(ids('/many').sort()).toEqual(raised.slice(-LIMITS.pendingPerSubscription).map((id) => `inc-${id}`));

    receiver.on('/stale', { secrets: [secret(1)] });
    const stale = await subscribe('rosa', '/stale', { cursor: 'ffffffff.1' });
    expect(stale.result?.truncated).toBe(true);
    receiver.on('/old', { secrets: [secret(1)] });
    const old = await subscribe('rory', '/old');
    await unsubscribe('rory', '/old');
    await raise('old-1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const floored = await subscribe('rory', '/old', { cursor: old.result!.cursor, maxAgeMs: 1 });
    expect(floored.result?.truncated).toBe(true);
    await settled(worker, 'rory');
    expect(ids('/old')).toEqual([]);
    expect((await subscribe('rory', '/x', { cursor: 'not a cursor' })).error?.code).toBe(-32602);
  });
});

describe('a webhook subscription to a type backed by check', () => {
  it('is delivered what check finds, asked on its timer (no emit needed) and at once on an emit, each with its upstream cursor', async () => {
    receiver.on('/tickets', { secrets: [secret(1)] });
    const made = await subscribe('tom', '/tickets', { arguments: { prefix: 'W' } }, 'ticket.updated');
    expect(made.result).toMatchObject({ truncated: false, cursor: expect.any(String) });
    const start = made.result!.cursor as string;
    const { result } = await ticket('W1', true);
    const afterW1 = result!.content[0].text as string;
    await until(() => ids('/tickets').length === 1, 'the ticket check found');
    const [first] = receiver.events('/tickets');
    expect(first!.body).toMatchObject({ eventId: 'ticket-W1', name: 'ticket.updated', data: { id: 'W1' } });
    expect(first!.headers['webhook-id']).toBe('ticket-W1');
    expect(first!.body.cursor).toBe(afterW1);
    await ticket('V1', true); // not for prefix W
    await ticket('W2');
    await until(() => ids('/tickets').length === 2, 'the emitted ticket');
    await settled(worker, 'tom');
    expect(ids('/tickets')).toEqual(['ticket-W1', 'ticket-W2']);
    expect(start).not.toBe(afterW1);

    // Resubscribed after it was gone, from the last cursor it had: what check finds after it comes first.
    const last = receiver.events('/tickets').at(-1)!.body.cursor as string;
    await unsubscribe('tom', '/tickets', 'ticket.updated');
    const { result: position } = await ticket('W3', true);
    const back = await subscribe('tom', '/tickets', { arguments: { prefix: 'W' }, cursor: last }, 'ticket.updated');
    expect(back.result).toMatchObject({ truncated: false, cursor: last });
    await until(() => ids('/tickets').length === 3, 'the replayed ticket');
    expect(receiver.events('/tickets')[2]!.body).toMatchObject({
      eventId: 'ticket-W3',
      cursor: position!.content[0].text,
    });
  });
});
