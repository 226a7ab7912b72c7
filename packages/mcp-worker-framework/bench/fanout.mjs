/**
 * `node bench/fanout.mjs` (by hand; not part of `npm run bench`): the notifications hub's
 * fan-out under workerd. The Worker of bench/fanout/ (notifications on, the default 8 shards) runs
 * in Miniflare; 1, 100 and 1,000 listeners hold `subscriptions/listen` streams over loopback, each
 * subscribed to one resource; a webhook notifies it, round after round. Per round: the time from
 * the notify to the last listener's delivery (as the listeners read it). Over all rounds: workerd's
 * CPU time (the Worker's isolate, the hub's objects, the HTTP and WebSocket plumbing) per
 * notification delivered, less what it spends idle over as long.
 * Options: --listeners=1,100,1000 --write (puts the table in BENCHMARKS.md, between its "fanout" markers);
 * --profile[=9390]: a CPU profile of workerd's isolate over the rounds (its inspector on that port).
 * The harness (Worker, rounds, CPU, table) is bench/deliveryBench.mjs, shared with bench/events.mjs.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { arg, deliveryBench, mcpPost, measureRounds } from './deliveryBench.mjs';

const COUNTS = arg('listeners', '1,100,1000').split(',').map(Number);
/** Rounds per count: enough deliveries that a 10 ms CPU tick is small beside them. */
const roundsFor = (listeners) => Math.max(10, Math.ceil(400 / listeners));
/** Past the hub's merge window (100 ms), so each round is its own fan-out. */
const BETWEEN_ROUNDS_MS = 150;

/** One listener: its stream open and acknowledged, counting deliveries and when the last came. */
async function listen(url, principal) {
  const response = await mcpPost(url, principal, 'subscriptions/listen', {
    notifications: { resourceSubscriptions: ['bench://doc'] },
  });
  if (response.status !== 200) throw new Error(`listen answered ${response.status}: ${await response.text()}`);
  const listener = { delivered: 0, lastAt: 0, acknowledged: undefined };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let acknowledge;
  listener.acknowledged = new Promise((resolve) => (acknowledge = resolve));
  let buffer = '';
  listener.done = (async () => {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      buffer += next.value;
      const events = buffer.split('\n\n');
      buffer = events.pop();
      for (const event of events) {
        if (event.includes('subscriptions/acknowledged')) acknowledge();
        else if (event.includes('notifications/resources/updated')) {
          listener.delivered++;
          listener.lastAt = performance.now();
        }
      }
    }
  })().catch(() => {});
  listener.close = () => reader.cancel().catch(() => {});
  await listener.acknowledged;
  return listener;
}

async function measure(url, pid, count) {
  const listeners = [];
  for (let i = 0; i < count; i += 50)
    listeners.push(
      ...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => listen(url, `l${i + j}`)))),
    );
  const result = await measureRounds(pid, {
    count,
    rounds: roundsFor(count),
    timeoutMs: 30_000,
    pauseMs: BETWEEN_ROUNDS_MS,
    async trigger() {
      const answer = await fetch(`${url}/notify`, { method: 'POST' });
      if (answer.status !== 202) throw new Error(`notify answered ${answer.status}`);
    },
    delivered: (round) => listeners.filter((l) => l.delivered >= round).length,
    lastAt: () => Math.max(...listeners.map((l) => l.lastAt)),
  });
  await Promise.all(listeners.map((l) => l.close()));
  await sleep(500);
  return result;
}

await deliveryBench({
  name: 'fanout',
  bindings: { LISTEN_MAX_STREAMS: '4000', LISTEN_MAX_SECONDS: '3600' },
  counts: COUNTS,
  columns: ['listeners', 'workerd CPU per delivered notification (µs)'],
  measure,
});
