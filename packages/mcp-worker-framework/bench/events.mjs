/**
 * `node bench/events.mjs` (by hand; not part of `npm run bench`): MCP Events' webhook delivery
 * under workerd. The Worker of bench/events/ runs in Miniflare; 1, 100 and 1,000 principals each
 * hold one webhook subscription to a receiver on loopback (node:http, which echoes the challenge
 * and answers 204); a route emits one event, round after round. Per round: the time from the emit
 * to the receiver's last delivery. Over all rounds: workerd's CPU time (the Worker, the event
 * type's object fanning out, the principals' objects signing and posting) per delivery, less what
 * it spends idle over as long.
 * Options: --subscriptions=1,100,1000 --write (puts the table in BENCHMARKS.md, between its "events" markers);
 * --profile[=9390]: a CPU profile of workerd's isolate over the rounds (its inspector on that port),
 * printed as the functions with the most self time (what a delivery's CPU is spent on).
 * The harness (Worker, rounds, CPU, table) is bench/deliveryBench.mjs, shared with bench/fanout.mjs.
 */
import { createServer } from 'node:http';
import { fixed, percentile } from './stats.mjs';
import { arg, deliveryBench, mcpPost, measureRounds } from './deliveryBench.mjs';

const COUNTS = arg('subscriptions', '1,100,1000').split(',').map(Number);
/** Rounds per count: enough deliveries that a 10 ms CPU tick is small beside them. */
const roundsFor = (count) => Math.max(5, Math.ceil(200 / count));
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** The receiver: echoes challenges, counts deliveries by event number, and when the last of each came. */
async function receiver() {
  const byEvent = new Map();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (body.type === 'verification') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        return response.end(JSON.stringify({ challenge: body.challenge }));
      }
      const seen = byEvent.get(body.data?.n) ?? { count: 0, lastAt: 0, arrivals: [] };
      seen.count++;
      seen.lastAt = performance.now();
      seen.arrivals.push(seen.lastAt);
      byEvent.set(body.data?.n, seen);
      response.writeHead(204);
      response.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, byEvent, close: () => server.close() };
}

let subscribed = 0;
let emitted = 0;

async function measure(url, pid, hook, count) {
  while (subscribed < count) {
    const first = subscribed;
    subscribed = Math.min(count, subscribed + 20);
    await Promise.all(
      Array.from({ length: subscribed - first }, async (_, j) => {
        const answer = await (
          await mcpPost(url, `p${first + j}`, 'events/subscribe', {
            name: 'bench.happened',
            delivery: { url: `${hook.origin}/hook`, secret: SECRET },
            ttlMs: 3_600_000,
          })
        ).json();
        if (!answer.result?.id) throw new Error(`subscribe: ${JSON.stringify(answer.error)}`);
      }),
    );
  }
  // The Worker numbers its events from 1 across counts: this count's round r is event `base + r`.
  const base = emitted;
  const event = (round) => hook.byEvent.get(base + round);
  const result = await measureRounds(pid, {
    count,
    rounds: roundsFor(count),
    timeoutMs: 120_000,
    async trigger(round) {
      emitted = base + round;
      const answer = await fetch(`${url}/emit`, { method: 'POST' });
      if (answer.status !== 202) throw new Error(`emit answered ${answer.status}`);
    },
    delivered: (round) => event(round)?.count ?? 0,
    lastAt: (round) => event(round).lastAt,
  });
  // The slowest round (its last delivery the longest after its emit), told apart: most deliveries
  // late, or a few stragglers (a retry on its backoff).
  const lastAfter = ({ sent, arrivals }) => arrivals.at(-1) - sent;
  const slowest = result.sent
    .map((sent, i) => ({ sent, arrivals: event(i + 1).arrivals }))
    .sort((a, b) => lastAfter(b) - lastAfter(a))[0];
  const after = slowest.arrivals.map((at) => at - slowest.sent).sort((a, b) => a - b);
  console.log(
    `${count} subscriptions, slowest round: half delivered by ${fixed(percentile(after, 50))} ms, 99% by ${fixed(percentile(after, 99))} ms, the last at ${fixed(after.at(-1))} ms`,
  );
  return result;
}

const hook = await receiver();
try {
  await deliveryBench({
    name: 'events',
    bindings: { EVENTS_LOOPBACK_CALLBACKS: 'on' },
    counts: COUNTS,
    columns: ['subscriptions', 'workerd CPU per delivery (µs)'],
    measure: (url, pid, count) => measure(url, pid, hook, count),
  });
} finally {
  hook.close();
}
