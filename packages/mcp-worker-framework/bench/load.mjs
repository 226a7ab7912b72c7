/**
 * Throughput under workerd: each contender's bundle served by the `workerd` binary alone (no
 * wrangler proxy) on loopback, loaded by wrk (1 thread, 32 connections) for a fixed time, in
 * interleaved rounds: operations and contenders rotate so no one always runs first, and the two
 * contenders of each reported ratio run back to back. Reports the median run and the median
 * ratio, and the CPU share of wrk beside workerd's, to show which one was the limit.
 */
import { readFileSync } from 'node:fs';
import { serveWithWorkerd } from '../scripts/workerd.mjs';
import { configOf, outDir } from './build.mjs';
import { expectationFor, OPS, opFor, requestOf, wireHeaders } from './requests.mjs';
import { fixed, table } from './stats.mjs';
import { wrk } from './wrk.mjs';

/** Contenders served under workerd: name → bundle and vars ("template" is the template's defaults). */
export const SERVED = {
  shipped: { bundle: 'shipped' },
  fork: { bundle: 'fork' },
  template: { bundle: 'template' },
  'template, logs off': { bundle: 'template', vars: { REQUEST_LOGS: 'off' } },
  'template, logs on': { bundle: 'template', vars: { REQUEST_LOGS: 'on' } },
  sdk: { bundle: 'sdk' },
  agents: { bundle: 'agents' },
  bare: { bundle: 'bare' },
  'bare + parse': { bundle: 'bare-parse' },
  'bare + checks': { bundle: 'bare-checks' },
  'bare + pipeline': { bundle: 'bare-pipeline' },
};

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

export const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length ? sorted[(sorted.length - 1) >> 1] : Number.NaN;
};

export async function serveAll(served) {
  const servers = {};
  try {
    for (const [name, { bundle, vars }] of Object.entries(served)) {
      // The workerd binary itself, not the test kit: an entry Worker in front would cap the throughput measured.
      servers[name] = await serveWithWorkerd({ config: configOf(bundle), bundle: outDir(bundle), vars });
    }
  } catch (error) {
    await stopAll(servers);
    throw error;
  }
  return servers;
}

export const stopAll = (servers) => Promise.all(Object.values(servers).map((s) => s.stop()));

/** One answer per contender and operation must be the expected one before any load. */
export async function checkAnswers(servers, ops, expectation) {
  for (const [name, server] of Object.entries(servers)) {
    for (const op of ops) {
      const concrete = opFor(name, op);
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: wireHeaders(concrete),
        body: requestOf(concrete).body,
      });
      const body = await response.text();
      const want = expectation(name, op);
      if (response.status !== want.status || !body.includes(want.contains))
        throw new Error(`${name} ${op}: unexpected answer ${response.status} ${body.slice(0, 200)}`);
    }
  }
}

/** Errors in a wrk run: socket errors, and answers whose status class is not the expected one. */
const errorsOf = (r, status) => r.socketErrors + (status < 300 ? r.non2xx : r.requests - r.non2xx);

/**
 * The ratios the throughput tables report. A core's speed swings from one second to the next on
 * this machine (BENCHMARKS.md, "Reading these figures"), so each ratio is taken from runs of its
 * two contenders back to back, never seconds apart.
 */
export const PAIRS = [
  ['shipped', 'sdk'],
  ['fork', 'sdk'],
  ['shipped', 'bare + pipeline'],
  ['fork', 'bare + pipeline'],
  ['template', 'bare + parse'],
  ['template', 'sdk'],
  ['template, logs off', 'bare + parse'],
  ['template', 'bare + checks'],
  ['bare + pipeline', 'bare + parse'],
  ['template', 'bare + pipeline'],
  ['template, logs on', 'template'],
];

/**
 * Runs every (contender, op) `count` times, operations rotating. In each round and operation,
 * each pair [a, b] of `pairs` runs back to back (a then b, the next round b then a) and gives
 * one ratio of a's rate to b's; the contenders in no pair follow, rotating. Returns the samples
 * keyed "name op", the ratios keyed "a ÷ b op" (of requests/s, and of requests per workerd
 * CPU-second), and the load average at the start of each round.
 */
export async function rounds(servers, ops, { rounds: count, seconds, connections, expectation, pairs = [] }) {
  const names = Object.keys(servers);
  const paired = new Set(pairs.flat());
  const alone = names.filter((name) => !paired.has(name));
  const samples = {};
  const ratios = {};
  const loads = [];
  const run = async (name, op) => {
    const r = await wrk(`${servers[name].url}/mcp`, opFor(name, op), {
      serverPid: servers[name].pid,
      seconds,
      connections,
    });
    const entry = (samples[`${name} ${op}`] ??= {
      rps: [],
      p50: [],
      p99: [],
      wrkCpu: [],
      serverCpu: [],
      machineBusy: [],
      errors: 0,
    });
    for (const key of ['rps', 'p50', 'p99', 'wrkCpu', 'serverCpu', 'machineBusy']) entry[key].push(r[key]);
    entry.errors += errorsOf(r, expectation(name, op).status);
    return r;
  };
  for (const name of names)
    await wrk(`${servers[name].url}/mcp`, ops[0], { serverPid: servers[name].pid, seconds: 1, connections }); // warm up
  for (let round = 0; round < count; round++) {
    loads.push(loadAverage());
    for (const op of [...ops.slice(round % ops.length), ...ops.slice(0, round % ops.length)]) {
      for (const [a, b] of pairs) {
        const first = round % 2 === 0 ? a : b;
        const firstRun = await run(first, op);
        const secondRun = await run(first === a ? b : a, op);
        const [ra, rb] = first === a ? [firstRun, secondRun] : [secondRun, firstRun];
        const entry = (ratios[`${a} ÷ ${b} ${op}`] ??= { rps: [], perCpu: [] });
        entry.rps.push(ra.rps / rb.rps);
        entry.perCpu.push(ra.rps / ra.serverCpu / (rb.rps / rb.serverCpu));
      }
      for (let k = 0; k < alone.length; k++) await run(alone[(k + round) % alone.length], op);
    }
  }
  return { samples, ratios, loads };
}

export const ROUNDS = 8;
export const SECONDS = 1;

export async function underWorkerd({ rounds: count = ROUNDS, seconds = SECONDS, connections = 32 } = {}) {
  const ops = Object.keys(OPS);
  const servers = await serveAll(SERVED);
  let result;
  try {
    await checkAnswers(servers, ops, expectationFor);
    result = await rounds(servers, ops, {
      rounds: count,
      seconds,
      connections,
      expectation: expectationFor,
      pairs: PAIRS,
    });
  } finally {
    await stopAll(servers);
  }
  const { samples, ratios, loads } = result;
  const names = Object.keys(SERVED);
  const sample = (name, op) => samples[`${name} ${op}`];
  const label = ([a, b]) => `${a.replace('template, ', '')} ÷ ${b}`;
  /**
   * One table of a rate (higher is better) per contender and operation (the median of its
   * runs), with the ratios of PAIRS (the median of their back-to-back ratios).
   */
  const rates = (unit, rate, ratioKey, extra = () => []) =>
    table(
      ['operation', ...names.map((n) => `${n} ${unit}`), ...PAIRS.map(label), ...extra(null)],
      ops.map((op) => [
        op,
        ...names.map((n) => fixed(median(sample(n, op).rps.map((_, i) => rate(n, op, i))), 0)),
        ...PAIRS.map(([a, b]) => {
          const value = median(ratios[`${a} ÷ ${b} ${op}`][ratioKey]);
          return b === 'sdk' ? `${fixed(value, 1)}×` : fixed(value, 2);
        }),
        ...extra(op),
      ]),
    );
  const throughput = rates(
    'req/s',
    (n, op, i) => sample(n, op).rps[i],
    'rps',
    (op) =>
      op === null
        ? ['template ms p50 / p99', 'errors (all)']
        : [
            `${fixed(median(sample('template', op).p50), 1)} / ${fixed(median(sample('template', op).p99), 1)}`,
            String(names.reduce((sum, n) => sum + sample(n, op).errors, 0)),
          ],
  );
  // Requests per second of workerd's own CPU time: what the Worker costs, whatever share of the
  // cores the neighbours left it (run by run, then the median).
  const perCpu = rates('req/CPU-s', (n, op, i) => sample(n, op).rps[i] / sample(n, op).serverCpu[i], 'perCpu');
  const all = (name, key) => median(ops.flatMap((op) => samples[`${name} ${op}`][key]));
  const generator = table(
    [
      'contender',
      'req/s (median of all runs)',
      'wrk CPU (of one core)',
      'workerd CPU (of one core)',
      'whole machine busy (of two cores)',
    ],
    names.map((n) => [
      n,
      fixed(all(n, 'rps'), 0),
      ...['wrkCpu', 'serverCpu', 'machineBusy'].map((key) => `${fixed(all(n, key) * 100, 0)}%`),
    ]),
  );
  return { throughput, perCpu, generator, loads, servers };
}
