/**
 * `node bench/native.mjs [contender] [other contender] [--op tools/call] [--seconds 5]`: where a
 * request's CPU time goes inside workerd, the runtime's own C++ included, which the DevTools
 * profile (`bench/profile.mjs`) cannot see. Each contender is served under workerd with V8's
 * `--perf-basic-prof` (so the sampler can name JavaScript functions) and loaded by wrk while
 * Linux `perf` samples its CPU clock; every sample is put in one part of the runtime by the name
 * of the function it hit, and each part is shown in µs of CPU per request, side by side with the
 * other contender's and the difference, then the functions that differ most.
 *
 *   node bench/native.mjs template "bare + pipeline" --op tools/call
 *
 * Needs `perf` (Debian: `apt-get install linux-perf`) and the bundles (`node bench/build.mjs`).
 * Only ratios within one run mean anything on a shared machine: sampling slows the Worker.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveWithWorkerd } from '../scripts/workerd.mjs';
import { configOf, outDir } from './build.mjs';
import { SERVED } from './load.mjs';
import { fixed, table } from './stats.mjs';
import { ensureWrk, wrk } from './wrk.mjs';

/** Samples per second per thread: enough for a few thousand per run, little enough not to crowd the Worker. */
const FREQUENCY = 2999;

/** The part of the runtime a sampled function belongs to, by its name and the file it is in. */
const PARTS = [
  ['kernel (sockets, scheduling)', (dso) => dso.startsWith('[kernel')],
  ['JavaScript (compiled code)', (dso) => dso.startsWith('[JIT')],
  ['memory allocator (tcmalloc)', (_, sym) => /tcmalloc|^TCMalloc/.test(sym)],
  [
    'garbage collection, handles',
    (_, sym) => /Scaveng|Sweep|cppgc|Heap::|GlobalHandles|Evacuat|ExternalEntityTable|MinorM|Mark|Visitor/.test(sym),
  ],
  ['V8 built-ins (calls, promises, property access)', (_, sym) => sym.startsWith('Builtins_')],
  ['V8 runtime', (_, sym) => sym.startsWith('v8::')],
  ['bindings between JavaScript and the runtime (jsg)', (_, sym) => sym.includes('workerd::jsg')],
  ['runtime APIs (Request, Headers, streams, ...)', (_, sym) => sym.includes('workerd::')],
  ['HTTP server and event loop (kj, hyper, tokio)', (_, sym) => /kj::|^kj|kj_|hyper|tokio|futures/.test(sym)],
  ['C library', (dso) => dso.startsWith('libc')],
];
const OTHER = 'other';

function ensurePerf() {
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('perf is missing: install it (Debian: apt-get install linux-perf)');
  }
}

/** Samples per part and per function, from `perf report`, with the total. */
function samplesOf(file) {
  const report = execFileSync(
    'perf',
    ['report', '-i', file, '--no-children', '--sort', 'dso,sym', '-F', 'sample,dso,sym', '-q', '--stdio', '-g', 'none'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const parts = new Map();
  const functions = new Map();
  let total = 0;
  for (const line of report.split('\n')) {
    const match = /^\s*(\d+)\s+(.+?)\s+\[.\]\s+(.*)$/.exec(line); // the object's name may have spaces ([JIT] tid 123)
    if (!match) continue;
    const [, count, dso, sym] = match;
    const n = Number(count);
    const part = PARTS.find(([, test]) => test(dso, sym))?.[0] ?? OTHER;
    parts.set(part, (parts.get(part) ?? 0) + n);
    const name = sym.length > 110 ? `${sym.slice(0, 107)}...` : sym;
    functions.set(name, (functions.get(name) ?? 0) + n);
    total += n;
  }
  return { parts, functions, total };
}

/** Serves `name`, warms it up, and samples workerd while wrk loads it with `op` for `seconds`. */
async function sample(name, op, seconds) {
  const { bundle, vars } = SERVED[name];
  // The workerd binary itself, not the test kit: perf needs V8's own flag, and nothing in front of the Worker.
  const server = await serveWithWorkerd({
    config: configOf(bundle),
    bundle: outDir(bundle),
    vars,
    v8Flags: ['--perf-basic-prof'],
  });
  const file = join(mkdtempSync(join(tmpdir(), 'mcp-perf-')), 'perf.data');
  try {
    await wrk(`${server.url}/mcp`, op, { serverPid: server.pid, seconds: 2 }); // warm up: hot code compiled
    const perf = spawn(
      'perf',
      ['record', '-e', 'cpu-clock', '-F', String(FREQUENCY), '-p', String(server.pid), '-o', file],
      { stdio: 'ignore' },
    );
    const stopped = new Promise((done) => perf.once('exit', done));
    const watchdog = setTimeout(() => perf.kill('SIGKILL'), (seconds + 30) * 1000);
    let run;
    try {
      await new Promise((done) => setTimeout(done, 200)); // perf attaches
      run = await wrk(`${server.url}/mcp`, op, { serverPid: server.pid, seconds });
    } finally {
      perf.kill('SIGINT');
      await stopped;
      clearTimeout(watchdog);
    }
    // one sample is 1/FREQUENCY s of one thread's CPU; the requests are wrk's
    const perRequest = (samples) => (samples / FREQUENCY / run.requests) * 1e6;
    return { ...samplesOf(file), perRequest, rps: run.rps };
  } finally {
    await server.stop();
  }
}

export async function native(names, op = 'tools/call', seconds = 5) {
  ensurePerf();
  ensureWrk();
  const runs = [];
  for (const name of names) runs.push(await sample(name, op, seconds));
  const us = (run, samples) => fixed(run.perRequest(samples ?? 0), 1);
  const [a, b] = runs;
  const diff = (get) => (b ? [fixed(a.perRequest(get(a) ?? 0) - b.perRequest(get(b) ?? 0), 1)] : []);
  const parts = [...PARTS.map(([part]) => part), OTHER];
  console.log(
    `${op}, µs of workerd CPU per request while sampled (${names.map((n, i) => `${n}: ${fixed(runs[i].rps, 0)} req/s`).join(', ')})\n`,
  );
  console.log(
    table(
      ['part of the runtime', ...names, ...(b ? [`${names[0]} − ${names[1]}`] : [])],
      [
        ...parts.map((part) => [
          part,
          ...runs.map((run) => us(run, run.parts.get(part))),
          ...diff((run) => run.parts.get(part)),
        ]),
        ['all', ...runs.map((run) => us(run, run.total)), ...diff((run) => run.total)],
      ],
    ),
  );
  const functions = new Set([...a.functions.keys(), ...(b?.functions.keys() ?? [])]);
  const cost = (name) => a.perRequest(a.functions.get(name) ?? 0) - (b ? b.perRequest(b.functions.get(name) ?? 0) : 0);
  const top = [...functions].sort((x, y) => cost(y) - cost(x)).slice(0, 20);
  console.log(
    `\nThe functions with the most ${b ? `CPU more in ${names[0]} than in ${names[1]}` : 'CPU'} (self time, µs per request):\n`,
  );
  console.log(
    table(
      ['function', ...names, ...(b ? ['difference'] : [])],
      top.map((name) => [
        name,
        ...runs.map((run) => us(run, run.functions.get(name))),
        ...(b ? [fixed(cost(name), 2)] : []),
      ]),
    ),
  );
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const args = process.argv.slice(2);
  const option = (flag) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args.splice(at, 2)[1];
  };
  const op = option('--op') ?? 'tools/call';
  const seconds = Number(option('--seconds') ?? 5);
  const names = args.length > 0 ? args : ['template', 'bare + parse'];
  for (const name of names)
    if (!SERVED[name]) throw new Error(`unknown contender ${name}: one of ${Object.keys(SERVED).join(', ')}`);
  await native(names.slice(0, 2), op, seconds);
}
