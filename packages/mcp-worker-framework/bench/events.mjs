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
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { fixed, machine, percentile, table } from './stats.mjs';
import { cpuTicks, TICKS_PER_SECOND } from './wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = join(root, 'bench/events/wrangler.toml');
const wrangler = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const COUNTS = arg('subscriptions', '1,100,1000').split(',').map(Number);
/** Rounds per count: enough deliveries that a 10 ms CPU tick is small beside them. */
const roundsFor = (count) => Math.max(5, Math.ceil(200 / count));
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const PROFILE = process.argv.some((a) => a.startsWith('--profile'));
const INSPECTOR_PORT = Number(arg('profile', '9390'));

async function start() {
  const outdir = mkdtempSync(join(tmpdir(), 'events-bench-'));
  execFileSync(process.execPath, [wrangler, 'deploy', '--dry-run', '--outdir', outdir, '--config', config], {
    cwd: root,
    stdio: 'ignore',
  });
  const [{ Miniflare, convertV4MiniflareOptions }, { unstable_getMiniflareWorkerOptions }] = await Promise.all([
    import('miniflare'),
    import('wrangler'),
  ]);
  const {
    workerOptions: { modulesRules: _rules, ...workerOptions },
  } = unstable_getMiniflareWorkerOptions(config);
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...workerOptions,
      modulesRoot: outdir,
      modules: [{ type: 'ESModule', path: join(outdir, 'worker.js') }],
      bindings: {
        AUTH_MODE: 'jwt',
        AUTH_ISSUER: 'https://issuer.invalid',
        AUTH_RESOURCE: 'https://events.example.com/mcp',
        EVENTS_LOOPBACK_CALLBACKS: 'on',
        MCP_STATE_SECRET: 'events bench',
        REQUEST_LOGS: 'off',
      },
      handleStructuredLogs: ({ level, message }) => level === 'error' && console.error(message),
      ...(PROFILE ? { inspectorPort: INSPECTOR_PORT } : {}),
    }),
  );
  const url = (await mf.ready).origin;
  return { url, dispose: async () => (await mf.dispose(), rmSync(outdir, { recursive: true, force: true })) };
}

function workerdPid() {
  const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  const line = children.split('\n').find((l) => l.includes('workerd'));
  if (!line) throw new Error('no workerd child process found');
  return Number(line.trim().split(/\s+/)[0]);
}

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

const rpc = (url, principal, method, params) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      Authorization: `Bearer ${principal}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'events-bench', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
        ...params,
      },
    }),
  }).then((response) => response.json());

/** The isolate's CPU profiler (Chrome DevTools protocol on workerd's inspector), for --profile. */
async function profiler() {
  const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let id = 0;
  const pending = new Map();
  socket.onmessage = ({ data }) => {
    const message = JSON.parse(data);
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  };
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 100 });
  return {
    start: () => send('Profiler.start'),
    async stop() {
      const { profile } = await send('Profiler.stop');
      socket.close();
      return profile;
    },
  };
}

/** The functions with the most self time in a profile, then the Worker's own by total time (theirs and what they call). */
function hottest(profile, top = 20) {
  const self = new Map(profile.nodes.map((n) => [n.id, 0]));
  profile.samples.forEach((sample, i) => self.set(sample, self.get(sample) + (profile.timeDeltas[i] ?? 0)));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const keyOf = ({ callFrame: { functionName, url, lineNumber } }) =>
    `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
  const inclusive = new Map();
  const totalOf = (node) => {
    let sum = self.get(node.id);
    for (const child of node.children ?? []) sum += totalOf(byId.get(child));
    inclusive.set(node.id, sum);
    return sum;
  };
  totalOf(profile.nodes[0]);
  const idle = profile.nodes
    .filter((n) => n.callFrame.functionName === '(idle)')
    .reduce((a, n) => a + self.get(n.id), 0);
  const busy = [...self.values()].reduce((a, b) => a + b, 0) - idle;
  const ranked = (values, filter) => {
    const sums = new Map();
    for (const node of profile.nodes) {
      if (node.callFrame.functionName === '(idle)' || !filter(node)) continue;
      sums.set(keyOf(node), (sums.get(keyOf(node)) ?? 0) + values.get(node.id));
    }
    return [...sums]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  };
  // A function's total counts once per call path: a recursive one may count twice.
  return `self time:\n${ranked(self, () => true)}\n\ntotal time, the Worker's functions:\n${ranked(inclusive, (n) => n.callFrame.url.endsWith('.js'))}`;
}

let subscribed = 0;
let emitted = 0;

async function measure(url, pid, hook, count) {
  while (subscribed < count) {
    const first = subscribed;
    subscribed = Math.min(count, subscribed + 20);
    await Promise.all(
      Array.from({ length: subscribed - first }, async (_, j) => {
        const answer = await rpc(url, `p${first + j}`, 'events/subscribe', {
          name: 'bench.happened',
          delivery: { url: `${hook.origin}/hook`, secret: SECRET },
          ttlMs: 3_600_000,
        });
        if (!answer.result?.id) throw new Error(`subscribe: ${JSON.stringify(answer.error)}`);
      }),
    );
  }
  const rounds = roundsFor(count);
  const latencies = [];
  const spreads = [];
  await sleep(500);
  const idleStart = cpuTicks(pid);
  const idleFrom = performance.now();
  await sleep(1000);
  const idlePerMs = (cpuTicks(pid) - idleStart) / (performance.now() - idleFrom);
  const profiling = PROFILE ? await profiler() : undefined;
  await profiling?.start();
  const before = cpuTicks(pid);
  const from = performance.now();
  for (let round = 1; round <= rounds; round++) {
    const n = ++emitted;
    const sent = performance.now();
    const answer = await fetch(`${url}/emit`, { method: 'POST' });
    if (answer.status !== 202) throw new Error(`emit answered ${answer.status}`);
    const deadline = Date.now() + 120_000;
    while ((hook.byEvent.get(n)?.count ?? 0) < count) {
      if (Date.now() > deadline)
        throw new Error(`event ${n}: ${hook.byEvent.get(n)?.count ?? 0} of ${count} delivered`);
      await sleep(2);
    }
    latencies.push(hook.byEvent.get(n).lastAt - sent);
    spreads.push({ n, sent, arrivals: hook.byEvent.get(n).arrivals });
  }
  // The slowest round, told apart: most deliveries late, or a few stragglers (a retry on its backoff).
  const slowest = spreads.sort((a, b) => b.arrivals.at(-1) - a.arrivals.at(-1))[0];
  const after = slowest.arrivals.map((at) => at - slowest.sent).sort((a, b) => a - b);
  console.log(
    `${count} subscriptions, slowest round: half delivered by ${fixed(percentile(after, 50))} ms, 99% by ${fixed(percentile(after, 99))} ms, the last at ${fixed(after.at(-1))} ms`,
  );
  const ticks = cpuTicks(pid) - before - idlePerMs * (performance.now() - from);
  if (profiling)
    console.log(`\nSelf time of workerd's isolate, ${count} subscriptions:\n${hottest(await profiling.stop())}\n`);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    count,
    rounds,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    cpuPerDelivery: (Math.max(0, ticks) / TICKS_PER_SECOND / (rounds * count)) * 1e6,
  };
}

const hook = await receiver();
const { url, dispose } = await start();
try {
  const pid = workerdPid();
  const results = [];
  for (const count of COUNTS) results.push(await measure(url, pid, hook, count));
  const lines = [
    `Run of ${new Date().toISOString()}. Machine: ${await machine()}.`,
    '',
    table(
      ['subscriptions', 'rounds', 'time to last delivery, median (ms)', 'p95 (ms)', 'workerd CPU per delivery (µs)'],
      results.map((r) => [r.count, r.rounds, fixed(r.median), fixed(r.p95), fixed(r.cpuPerDelivery, 0)]),
    ),
  ];
  console.log(lines.join('\n'));
  if (process.argv.includes('--write')) {
    const path = join(root, 'BENCHMARKS.md');
    const text = readFileSync(path, 'utf8');
    const [open, close] = ['<!-- events:start -->', '<!-- events:end -->'];
    if (!text.includes(open) || !text.includes(close)) throw new Error(`BENCHMARKS.md has no ${open} … ${close}`);
    writeFileSync(path, text.replace(new RegExp(`${open}[\\s\\S]*${close}`), `${open}\n${lines.join('\n')}\n${close}`));
  }
} finally {
  await dispose();
  hook.close();
}
