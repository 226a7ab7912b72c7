/**
 * Instructions per request under workerd: the one figure on this machine that neighbours and
 * the hypervisor cannot move. Each contender's bundle runs in `workerd serve` under valgrind's
 * callgrind (which counts every instruction of every thread: the Worker's JavaScript, V8's
 * compilers and garbage collector, the runtime's HTTP stack); after a warm-up the counters are
 * zeroed, a fixed number of requests is sent one at a time, and the count is read back
 * (`callgrind_control`). Kernel time (sockets) is not counted; it is the same for every
 * contender. Slow (valgrind runs workerd about 50× slower): it runs
 * with `npm run bench` when valgrind is there (`--skip-instructions` leaves it out), or alone:
 *
 *   node bench/instructions.mjs [contender …] [--op tools/call] [--requests 1000] [--warmup 1000]
 *   node bench/instructions.mjs [contender …] --startup   # a cold start, to the first answer
 *   node bench/instructions.mjs [contender …] --startup --by-phase   # and where it goes (PHASES)
 *
 * Load does not move it, but it is not exact either: the counts of bare + parse and bare + checks
 * repeat within 0.2% from run to run, those of the template and bare + pipeline within about 3%
 * (BENCHMARKS.md, "Reading these figures").
 * What the window holds depends on the warm-up: V8 tiers hot functions up (Maglev, then TurboFan)
 * after some thousands of calls, and a compilation that falls inside the window is counted with
 * the requests (TurboFan compiling `@cfworker/json-schema`'s `validate` alone is about 90 million
 * instructions). `--warmup 6000` counts after them, though the collector's share still moves from
 * count to count (BENCHMARKS.md, "tools/call against its target"); the default, 1,000, is the
 * figure every table was taken with.
 * It is still the figure to compare two versions of the template by; it counts work, not time
 * (cache misses and memory traffic are not in it, and JavaScript pays more of those than the
 * runtime's C++).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, serveWithWorkerd, workerdBinary } from '../scripts/workerd.mjs';
import { configOf, outDir } from './build.mjs';
import { opFor, requestOf, wireHeaders } from './requests.mjs';

const V8_FLAGS = ['--no-concurrent-recompilation', '--no-concurrent-sparkplug', '--no-concurrent-osr'];

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

export function hasValgrind() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One request of `op`, its answer read to the end; resolves with its status. */
async function post(url, op) {
  const response = await fetch(url, { method: 'POST', headers: wireHeaders(op), body: requestOf(op).body });
  await response.arrayBuffer();
  return response.status;
}

async function send(url, op, count) {
  for (let i = 0; i < count; i++) await post(url, op);
}

/** The "summary:" or "totals:" line of a callgrind dump. */
const totalOf = (file) => Number(/^(?:summary|totals):\s*(\d+)/m.exec(readFileSync(file, 'utf8'))?.[1] ?? Number.NaN);

/**
 * Starts workerd running `bundle` (with `vars`, and `v8Flags`) under callgrind, which counts
 * every thread of the process, and waits until `probe(url)` succeeds. Returns the base URL,
 * `count()` (instructions since the start or the last `zero()`), `dump()` (the same and the
 * file callgrind wrote them to) and `stop()`.
 */
async function underCallgrind({ bundle, vars }, probe, v8Flags = []) {
  const port = await freePort();
  // serveWithWorkerd writes the capnp config; it is then run again under valgrind on the same port
  const plain = await serveWithWorkerd({ config: configOf(bundle), bundle: outDir(bundle), vars, port, v8Flags });
  await plain.stop();
  const out = join(mkdtempSync(join(tmpdir(), 'mcp-callgrind-')), 'callgrind.out');
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--dump-line=no',
      `--callgrind-out-file=${out}.%p`,
      workerdBinary(),
      'serve',
      plain.configFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((done) => child.once('exit', done));
  const stop = async () => {
    child.kill('SIGKILL');
    await exited;
  };
  let dumps = 0;
  /** Callgrind's counters since the start or the last `zero()`: their total, and the file they were dumped to. */
  const dump = () => {
    execFileSync('callgrind_control', ['--dump', String(child.pid)], { stdio: 'ignore' });
    const file = `${out}.${child.pid}.${++dumps}`; // dumps are written as <out>.<pid>.<n>
    return { total: totalOf(file), file };
  };
  try {
    const deadline = Date.now() + 120_000;
    while (!(await probe(plain.url).catch(() => false))) {
      if (child.exitCode !== null) throw new Error(`workerd under valgrind exited: ${stderr.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error('workerd under valgrind did not answer within 120 s');
      await sleep(100);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: plain.url,
    zero: () => execFileSync('callgrind_control', ['--zero', String(child.pid)], { stdio: 'ignore' }),
    count: () => dump().total,
    dump,
    stop,
  };
}

/**
 * Instructions per request of `op` against one workerd running `bundle` (with `vars`), after
 * `warmup` requests; the whole workerd process (every thread) is counted.
 */
export async function instructionsPerRequest(served, generic, { warmup = 1000, requests = 1000 } = {}) {
  const op = opFor(served.bundle, generic); // the contender's own tool for tools/call
  const listening = async (url) => {
    await fetch(url);
    return true;
  };
  // Under valgrind, V8's background compiler threads barely run, so hot code would stay in the
  // interpreter and count many times its real cost: compile on the main thread instead.
  const workerd = await underCallgrind(served, listening, V8_FLAGS);
  try {
    const url = `${workerd.url}/mcp`;
    await send(url, op, warmup);
    workerd.zero();
    await send(url, op, requests);
    return workerd.count() / requests;
  } finally {
    await workerd.stop();
  }
}

/**
 * Instructions of a cold start: from spawning workerd with `bundle` to its first answered
 * `tools/list` (the runtime's own start, the module's evaluation, the first request), every
 * thread counted. V8 keeps its default flags here: with others, workerd refuses its own compile
 * cache and compiles the runtime's scripts from source. What a version adds to a cold start,
 * without the noise of a clock.
 */
export async function startupInstructions(served, { byPhase = false } = {}) {
  const workerd = await underCallgrind(served, async (url) => (await post(`${url}/mcp`, 'tools/list')) === 200);
  try {
    if (!byPhase) return workerd.count();
    const { total, file } = workerd.dump();
    return { total, phases: phasesOf(file) };
  } finally {
    await workerd.stop();
  }
}

/**
 * Where a cold start's instructions go, by the function that spent them (callgrind's self cost,
 * workerd's symbols): the first pattern a function's name matches names its phase. What these
 * say of the Worker is in the difference to "bare", whose start is the runtime's own.
 */
export const PHASES = [
  // V8's scanner, parser and pre-parser: every byte of the script once, each function called again in full
  [
    'parse',
    /v8::internal::(?:\w+::)*(?:Scanner|PreParser|Parser|ParserBase|AstValueFactory|AstRawString|AstNodeFactory|\w*Scope\b|DeclarationScope|ExpressionScope|FuncNameInferrer|Zone|VariableProxy|PreparseData|ProducedPreparseData|ConsumedPreparseData|PerfectKeywordHash)|v8::internal::parsing::|StringHasher|UpdateNeedsHoleCheck/,
  ],
  ['bytecode', /v8::internal::interpreter::|BytecodeArray|ConstantArrayBuilder|HandlerTableBuilder/],
  ['regular expressions', /regexp|RegExp|icu_\d+::UnicodeSet/],
  ['garbage collection', /Heap::|Scavenger|MarkCompact|Sweeper|Marking|Evacuat|GCTracer|MemoryAllocator|MinorMS/],
  // the interpreter's handlers, the runtime's builtins: the JavaScript itself, as it runs
  ['JavaScript running', /Builtins_/],
  ['V8, other (objects, maps, functions, strings)', /v8::|V8::/],
  ['malloc, memset, memcpy', /tcmalloc|malloc|\bfree\b|operator new|operator delete|mem(?:set|cpy|move|cmp)/],
  ['workerd, its config, libc', /./],
];

/** The phase of `PHASES` a function of workerd (as callgrind names it) works in. */
export const phaseOf = (name) => PHASES.find(([, pattern]) => pattern.test(name))[0];

/** A callgrind dump's self costs summed by `PHASES`, in instructions. */
export function phasesOf(file) {
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const sums = Object.fromEntries(PHASES.map(([phase]) => [phase, 0]));
  for (const line of annotated.split('\n')) {
    const row = /^\s*([\d,]+) \([\s\d.]+%\)\s+(.*)$/.exec(line);
    if (!row || row[2].startsWith('PROGRAM TOTALS')) continue;
    sums[phaseOf(row[2])] += Number(row[1].replaceAll(',', ''));
  }
  return sums;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { SERVED } = await import('./load.mjs');
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(name) ? args.splice(args.indexOf(name), 2)[1] : fallback);
  const op = option('--op', 'tools/call');
  const requests = Number(option('--requests', 1000));
  const warmup = Number(option('--warmup', 1000));
  const startup = args.includes('--startup');
  const byPhase = args.includes('--by-phase');
  const given = args.filter((arg) => arg !== '--startup' && arg !== '--by-phase');
  const names = given.length ? given : ['template', 'bare + parse'];
  if (startup && byPhase) {
    // the first contender named is the base the others are compared with, e.g. bare
    console.log(await startupTable(SERVED, names, names[0], names.slice(1)));
    process.exit(0);
  }
  for (const name of names) {
    if (startup) {
      console.log(
        `${name.padEnd(20)} ${(await startupInstructions(SERVED[name])).toLocaleString('en')} instructions to the first answered tools/list`,
      );
    } else {
      const perRequest = await instructionsPerRequest(SERVED[name], op, { warmup, requests });
      console.log(
        `${name.padEnd(20)} ${op.padEnd(11)} ${Math.round(perRequest).toLocaleString('en')} instructions per request`,
      );
    }
  }
}

/**
 * The table for `npm run bench`: instructions per request of `names` (keys of `served`) for
 * each op, and what they make of the ratios of the throughput table (a ÷ b of rates is b's
 * count over a's).
 */
export async function instructionsTable(served, names, ops, pairs) {
  const { fixed, table } = await import('./stats.mjs');
  const counts = {};
  for (const op of ops)
    for (const name of names) counts[`${name} ${op}`] = await instructionsPerRequest(served[name], op);
  return table(
    ['operation', ...names, ...pairs.map(([a, b]) => `${a} ÷ ${b}`)],
    ops.map((op) => [
      op,
      ...names.map((n) => Math.round(counts[`${n} ${op}`]).toLocaleString('en')),
      ...pairs.map(([a, b]) => fixed(counts[`${b} ${op}`] / counts[`${a} ${op}`], 2)),
    ]),
  );
}

/**
 * The tables for `npm run bench`: instructions of a cold start of `names` (keys of `served`), and
 * each one's excess over `base`; then, for `phased` (some of `names`), the same by phase (`PHASES`).
 */
export async function startupTable(served, names, base, phased = []) {
  const { table } = await import('./stats.mjs');
  const counts = {};
  for (const name of names) {
    const byPhase = phased.includes(name) || name === base;
    const counted = await startupInstructions(served[name], { byPhase });
    counts[name] = byPhase ? counted : { total: counted };
  }
  const total = (name) => counts[name].total;
  const millions = (n) => (n / 1e6).toFixed(1);
  const totals = table(
    ['contender', 'instructions to the first answer (millions)', `− ${base}`],
    names.map((name) => [name, millions(total(name)), millions(total(name) - total(base))]),
  );
  if (phased.length === 0) return totals;
  // Each phase: base's instructions, and what each of `phased` adds to them.
  const phases = table(
    ['phase (millions of instructions)', base, ...phased.map((name) => `${name} − ${base}`)],
    PHASES.map(([phase]) => [
      phase,
      millions(counts[base].phases[phase]),
      ...phased.map((name) => millions(counts[name].phases[phase] - counts[base].phases[phase])),
    ]),
  );
  return `${totals}\n\n${phases}`;
}
