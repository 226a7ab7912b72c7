/**
 * `node bench/fanout.mjs` (by hand; not part of `npm run bench`): the notifications hub's
 * fan-out under workerd. The Worker of bench/fanout/ (notifications on, the default 8 shards) runs
 * in Miniflare; 1, 100 and 1,000 listeners hold `subscriptions/listen` streams over loopback, each
 * subscribed to one resource; a webhook notifies it, round after round. Per round: the time from
 * the notify to the last listener's delivery (as the listeners read it). Over all rounds: workerd's
 * CPU time (the Worker's isolate, the hub's objects, the HTTP and WebSocket plumbing) per
 * notification delivered, less what it spends idle over as long.
 * Options: --listeners=1,100,1000 --write (puts the table in BENCHMARKS.md, between its "fanout" markers).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { fixed, machine, percentile, table } from './stats.mjs';
import { cpuTicks, TICKS_PER_SECOND } from './wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = join(root, 'bench/fanout/wrangler.toml');
/** wrangler, wherever the install put it (the workspace hoists it to the repository's root). */
const wrangler = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const COUNTS = arg('listeners', '1,100,1000').split(',').map(Number);
/** Rounds per count: enough deliveries that a 10 ms CPU tick is small beside them. */
const roundsFor = (listeners) => Math.max(10, Math.ceil(400 / listeners));
/** Past the hub's merge window (100 ms), so each round is its own fan-out. */
const BETWEEN_ROUNDS_MS = 150;

/** Builds the Worker as `wrangler deploy` would, and runs it in Miniflare (as the test kit does). */
async function start() {
  const outdir = mkdtempSync(join(tmpdir(), 'fanout-bench-'));
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
        AUTH_RESOURCE: 'https://fanout.example.com/mcp',
        LISTEN_MAX_STREAMS: '4000',
        LISTEN_MAX_SECONDS: '3600',
        MCP_STATE_SECRET: 'fanout bench',
        REQUEST_LOGS: 'off',
      },
      handleStructuredLogs: ({ level, message }) => level === 'error' && console.error(message),
    }),
  );
  const url = (await mf.ready).origin;
  return { mf, url, dispose: async () => (await mf.dispose(), rmSync(outdir, { recursive: true, force: true })) };
}

/** workerd's process: the one child of this process running it. */
function workerdPid() {
  const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  const line = children.split('\n').find((l) => l.includes('workerd'));
  if (!line) throw new Error('no workerd child process found');
  return Number(line.trim().split(/\s+/)[0]);
}

/** One listener: its stream open and acknowledged, counting deliveries and when the last came. */
async function listen(url, principal) {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'subscriptions/listen',
      Authorization: `Bearer ${principal}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'fanout-bench', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
        notifications: { resourceSubscriptions: ['bench://doc'] },
      },
    }),
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
  const rounds = roundsFor(count);
  const latencies = [];
  await sleep(500);
  const idleStart = cpuTicks(pid);
  const idleFrom = performance.now();
  await sleep(1000);
  const idlePerMs = (cpuTicks(pid) - idleStart) / (performance.now() - idleFrom);
  const before = cpuTicks(pid);
  const from = performance.now();
  for (let round = 1; round <= rounds; round++) {
    const sent = performance.now();
    const answer = await fetch(`${url}/notify`, { method: 'POST' });
    if (answer.status !== 202) throw new Error(`notify answered ${answer.status}`);
    const deadline = Date.now() + 30_000;
    while (listeners.some((l) => l.delivered < round)) {
      if (Date.now() > deadline)
        throw new Error(`round ${round}: ${listeners.filter((l) => l.delivered < round).length} listeners never heard`);
      await sleep(1);
    }
    latencies.push(Math.max(...listeners.map((l) => l.lastAt)) - sent);
    await sleep(BETWEEN_ROUNDS_MS);
  }
  const ticks = cpuTicks(pid) - before - idlePerMs * (performance.now() - from);
  await Promise.all(listeners.map((l) => l.close()));
  await sleep(500);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    count,
    rounds,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    cpuPerDelivery: (Math.max(0, ticks) / TICKS_PER_SECOND / (rounds * count)) * 1e6,
  };
}

const { url, dispose } = await start();
try {
  const pid = workerdPid();
  const results = [];
  for (const count of COUNTS) results.push(await measure(url, pid, count));
  const lines = [
    `Run of ${new Date().toISOString()}. Machine: ${await machine()}.`,
    '',
    table(
      [
        'listeners',
        'rounds',
        'time to last delivery, median (ms)',
        'p95 (ms)',
        'workerd CPU per delivered notification (µs)',
      ],
      results.map((r) => [r.count, r.rounds, fixed(r.median), fixed(r.p95), fixed(r.cpuPerDelivery, 0)]),
    ),
  ];
  console.log(lines.join('\n'));
  if (process.argv.includes('--write')) {
    const path = join(root, 'BENCHMARKS.md');
    const text = readFileSync(path, 'utf8');
    const [start, end] = ['<!-- fanout:start -->', '<!-- fanout:end -->'];
    if (!text.includes(start) || !text.includes(end)) throw new Error(`BENCHMARKS.md has no ${start} … ${end}`);
    writeFileSync(path, text.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${lines.join('\n')}\n${end}`));
  }
} finally {
  await dispose();
}
