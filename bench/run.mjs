/**
 * `npm run bench`: builds every contender, then prints, from one run, the in-process cost,
 * the growth check, and throughput under workerd, as markdown tables with ratios.
 * Options: --quick (fewer iterations, shorter load), --skip-load.
 */
import { buildAll } from './build.mjs';
import { growth, inProcess } from './inproc.mjs';
import { underWorkerd } from './load.mjs';
import { machine } from './stats.mjs';

const quick = process.argv.includes('--quick');
console.log(`# Benchmark run ${new Date().toISOString()}\n\nMachine: ${await machine()}\n`);
buildAll();
console.log('## In process (Node 22, fetch handler called directly)\n');
console.log(await inProcess(quick ? { iterations: 2_000, warmup: 500 } : {}));
console.log('\n## Growth: the template with 10, 100 and 1,000 tools (in process)\n');
console.log(await growth(quick ? { iterations: 1_000, warmup: 200 } : {}));
if (!process.argv.includes('--skip-load')) {
  console.log('\n## Under workerd (workerd serve on loopback, autocannon, 32 connections)\n');
  console.log(await underWorkerd(quick ? { rounds: 1, seconds: 1 } : {}));
}
console.log(`\nMachine after the run: ${await machine()}`);
