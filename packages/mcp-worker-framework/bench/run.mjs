/**
 * `npm run bench`: installs the benchmark's peers (bench/package.json) and wrk when missing,
 * builds every contender, then prints, from one run, markdown tables: throughput under workerd
 * with the load generator's CPU share, cold starts, instructions per request, growth under
 * workerd, and the in-process cost.
 * Options: --quick (shorter, for a look, not for figures), --skip-load (in process only),
 * --skip-instructions (no instruction counts under valgrind),
 * --write (also puts the tables in BENCHMARKS.md, between its "results" markers).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerdBinary } from '../scripts/workerd.mjs';
import { buildAll, bundleOf, gzipBytes } from './build.mjs';
import { coldStarts } from './coldstart.mjs';
import { growthUnderWorkerd } from './growth.mjs';
import { growth, inProcess } from './inproc.mjs';
import { hasValgrind, instructionsTable, startupTable } from './instructions.mjs';
import { loadAverage, ROUNDS, SECONDS, SERVED, underWorkerd } from './load.mjs';
import { fixed, machine, table } from './stats.mjs';
import { ensureWrk } from './wrk.mjs';

const quick = process.argv.includes('--quick');
const COLD_STARTS = quick ? 3 : 21;
const withLoad = !process.argv.includes('--skip-load');
const withInstructions = withLoad && !quick && !process.argv.includes('--skip-instructions') && hasValgrind();
const out = [];
const print = (text = '') => {
  console.log(text);
  out.push(text);
};
const version = (command, args) => {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    return `${error.stdout ?? ''}${error.stderr ?? ''}`.trim(); // wrk -v exits 1 after printing
  }
};

if (withLoad) ensureWrk();
buildAll();
print(`Run of ${new Date().toISOString()}${quick ? ' (--quick: not for figures)' : ''}. Machine: ${await machine()}.`);
print(
  `workerd ${version(workerdBinary(), ['--version']).replace(/^workerd /, '')}, ${version('wrk', ['-v']).split('\n')[0].split(' [')[0]}.`,
);
print();

if (withLoad) {
  const load = await underWorkerd(quick ? { rounds: 1, seconds: 1 } : {});
  print('### Under workerd (workerd serve on loopback, wrk: 1 thread, 32 connections)\n');
  print(load.throughput);
  print(
    `\nRuns of ${quick ? 1 : SECONDS} s in ${quick ? 1 : ROUNDS} rounds. Requests/s: the median of a contender's runs. Each ratio: the median of its ${quick ? 1 : ROUNDS} ratios of two runs back to back (one per round, in turn a then b and b then a). Load average (1, 5, 15 min) at the start of each round: ${load.loads.join('; ')}.\n`,
  );
  print('#### Per second of workerd CPU time\n');
  print(load.perCpu);
  print(
    "\nEach run's requests/s divided by workerd's CPU share in that run (median of the runs): the Worker's cost, steadier than requests/s when neighbours take the cores.\n",
  );
  print('#### The load generator is not the limit\n');
  print(load.generator);
  print('\nCPU time from /proc/<pid>/stat over the middle of each run (100% = one core). The machine has two cores.\n');

  const starts = await coldStarts(load.servers, { runs: COLD_STARTS, base: 'bare' });
  print('### Cold start under workerd (spawn to the first answered tools/list)\n');
  print(
    table(
      [
        'contender',
        'cold start ms (median)',
        '− bare ms',
        'workerd CPU ms until then',
        '− bare ms',
        'bundle gzip bytes',
      ],
      Object.keys(SERVED).map((name) => [
        name,
        fixed(starts[name].wall, 0),
        fixed(starts[name].wallOverBase, 0),
        fixed(starts[name].cpu, 0),
        fixed(starts[name].cpuOverBase, 0),
        String(gzipBytes(bundleOf(SERVED[name].bundle))),
      ]),
    ),
  );
  print(
    `\nMedian of ${COLD_STARTS} starts each, contenders alternating; "− bare": the median of each round's difference to bare's start. Load average after: ${loadAverage()}.\n`,
  );

  if (withInstructions) {
    print('### Instructions per request under workerd (valgrind callgrind, every thread of the process)\n');
    print(
      await instructionsTable(
        SERVED,
        ['shipped', 'fork', 'template', 'sdk', 'bare', 'bare + parse', 'bare + checks', 'bare + pipeline'],
        ['discover', 'tools/list', 'tools/call'],
        [
          ['shipped', 'bare + pipeline'],
          ['fork', 'bare + pipeline'],
          ['shipped', 'sdk'],
          ['fork', 'sdk'],
          ['template', 'bare + parse'],
          ['template', 'bare + checks'],
          ['bare + pipeline', 'bare + parse'],
          ['template', 'bare + pipeline'],
          ['template', 'sdk'],
        ],
      ),
    );
    print(
      '\nAfter 1,000 warm-up requests, 1,000 requests one at a time; V8 compiles on the main thread (under valgrind its compiler threads barely run). No clock moves the count: the counts of bare + parse and bare + checks repeat within 0.2% from run to run, those of the template and bare + pipeline within about 3% ("Reading these figures").\n',
    );
    print('#### A cold start in instructions\n');
    print(
      await startupTable(
        SERVED,
        ['shipped', 'fork', 'template', 'sdk', 'agents', 'bare', 'bare + parse', 'bare + checks'],
        'bare',
        ['shipped', 'fork', 'template'],
      ),
    );
    print(
      "\nFrom spawning workerd to its first answered tools/list, every thread: the runtime's start, the module's evaluation and the first request. What the cold start table measures in milliseconds, without a clock's noise (BENCHMARKS.md, \"A cold start\"). By phase: each function's own instructions (callgrind's self cost), by what it does (`PHASES` in bench/instructions.mjs); bare's column is the runtime's own start.\n",
    );
  }

  const grown = await growthUnderWorkerd(quick ? { rounds: 1, seconds: 1, runs: 3 } : {});
  print('### Growth under workerd: the template with 10, 100 and 1,000 tools\n');
  print(grown.table);
  print(`\nLoad average at the start of each round: ${grown.loads.join('; ')}.\n`);
}

print('### In process (Node 22, fetch handler called directly)\n');
print(await inProcess(quick ? { iterations: 2_000, warmup: 500 } : {}));
print('\n### Growth in process\n');
print(await growth(quick ? { iterations: 1_000, warmup: 200 } : {}));
print(`\nMachine after the run: ${await machine()}.`);

if (process.argv.includes('--write')) {
  const file = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url));
  const [start, end] = ['<!-- results:start -->', '<!-- results:end -->'];
  const doc = readFileSync(file, 'utf8');
  if (!doc.includes(start) || !doc.includes(end)) throw new Error(`BENCHMARKS.md has no ${start} … ${end} section`);
  writeFileSync(
    file,
    `${doc.slice(0, doc.indexOf(start) + start.length)}\n\n${out.join('\n')}\n\n${doc.slice(doc.indexOf(end))}`,
  );
  console.error('BENCHMARKS.md: results written');
}
