/**
 * The harness of the delivery benchmarks (bench/events.mjs, bench/fanout.mjs), run by hand: the
 * bench's Worker (bench/<name>/) built as `wrangler deploy` would and run in Miniflare, as the test
 * kit does; for each count of receivers, rounds of one fan-out each, timed from the trigger to the
 * last delivery; workerd's CPU time per delivery over all rounds, less what it spends idle over as
 * long. Prints the table; options every such bench takes:
 *   --write            puts the table in BENCHMARKS.md, between the bench's markers (<!-- name:start -->)
 *   --profile[=9390]   a CPU profile of workerd's isolate over each count's rounds (its inspector on
 *                      that port), printed as the functions with the most self time
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
/** wrangler, wherever the install put it (the workspace hoists it to the repository's root). */
const wrangler = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');

/** The value of `--name=value` on the command line, or `fallback`. */
export const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;

const PROFILE = process.argv.some((a) => a.startsWith('--profile'));
const INSPECTOR_PORT = Number(arg('profile', '9390'));

/** Builds bench/<name>/ as `wrangler deploy` would, and runs it in Miniflare with JWT auth and `bindings` besides. */
async function start(name, bindings) {
  const config = join(root, `bench/${name}/wrangler.toml`);
  const outdir = mkdtempSync(join(tmpdir(), `${name}-bench-`));
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
        AUTH_RESOURCE: `https://${name}.example.com/mcp`,
        MCP_STATE_SECRET: `${name} bench`,
        REQUEST_LOGS: 'off',
        ...bindings,
      },
      handleStructuredLogs: ({ level, message }) => level === 'error' && console.error(message),
      ...(PROFILE ? { inspectorPort: INSPECTOR_PORT } : {}),
    }),
  );
  const url = (await mf.ready).origin;
  return { url, dispose: async () => (await mf.dispose(), rmSync(outdir, { recursive: true, force: true })) };
}

/** workerd's process: the one child of this process running it. */
function workerdPid() {
  const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  const line = children.split('\n').find((l) => l.includes('workerd'));
  if (!line) throw new Error('no workerd child process found');
  return Number(line.trim().split(/\s+/)[0]);
}

/** One 2026-07-28 request to the bench Worker's MCP endpoint as `principal` (its JWT verifier takes the token for it). */
export const mcpPost = (url, principal, method, params) =>
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
          'io.modelcontextprotocol/clientInfo': { name: 'delivery-bench', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
        ...params,
      },
    }),
  });

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

/**
 * Times `rounds` fan-outs to `count` receivers, each started by `trigger(round)` (1, 2, …) and
 * over when `delivered(round)` reaches `count`; `lastAt(round)` is when its last delivery came
 * (`performance.now()`). `pauseMs` waits after each round; a round not over in `timeoutMs` fails
 * the run. Answers the medians and CPU per delivery, and each round's send time.
 */
export async function measureRounds(pid, { count, rounds, trigger, delivered, lastAt, pauseMs = 0, timeoutMs }) {
  const latencies = [];
  const sent = [];
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
    sent.push(performance.now());
    await trigger(round);
    const deadline = Date.now() + timeoutMs;
    while (delivered(round) < count) {
      if (Date.now() > deadline) throw new Error(`round ${round}: ${delivered(round)} of ${count} delivered`);
      await sleep(1);
    }
    latencies.push(lastAt(round) - sent.at(-1));
    if (pauseMs) await sleep(pauseMs);
  }
  const ticks = cpuTicks(pid) - before - idlePerMs * (performance.now() - from);
  if (profiling)
    console.log(`\nSelf time of workerd's isolate, ${count} receivers:\n${hottest(await profiling.stop())}\n`);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    count,
    rounds,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    cpuPerDelivery: (Math.max(0, ticks) / TICKS_PER_SECOND / (rounds * count)) * 1e6,
    sent,
  };
}

/**
 * Runs the bench of bench/<name>/ with `bindings` for each of `counts`: `measure(url, pid, count)`
 * answers `measureRounds`' figures; `columns` name the count and the CPU figure in the table.
 */
export async function deliveryBench({ name, bindings, counts, columns: [countColumn, cpuColumn], measure }) {
  const { url, dispose } = await start(name, bindings);
  try {
    const pid = workerdPid();
    const results = [];
    for (const count of counts) results.push(await measure(url, pid, count));
    const lines = [
      `Run of ${new Date().toISOString()}. Machine: ${await machine()}.`,
      '',
      table(
        [countColumn, 'rounds', 'time to last delivery, median (ms)', 'p95 (ms)', cpuColumn],
        results.map((r) => [r.count, r.rounds, fixed(r.median), fixed(r.p95), fixed(r.cpuPerDelivery, 0)]),
      ),
    ];
    console.log(lines.join('\n'));
    if (process.argv.includes('--write')) {
      const path = join(root, 'BENCHMARKS.md');
      const text = readFileSync(path, 'utf8');
      const [open, close] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
      if (!text.includes(open) || !text.includes(close)) throw new Error(`BENCHMARKS.md has no ${open} … ${close}`);
      writeFileSync(
        path,
        text.replace(new RegExp(`${open}[\\s\\S]*${close}`), `${open}\n${lines.join('\n')}\n${close}`),
      );
    }
  } finally {
    await dispose();
  }
}
