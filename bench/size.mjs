/**
 * `npm run bench:size`: gzip size of each contender's production bundle, and the time to
 * evaluate the bundled module and answer a first request, in a fresh Node process each time
 * (median of 5). `--check` only checks the template's own bundle (dist/) against the budget.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unstable_readConfig as readConfig } from 'wrangler';
import { buildAll, bundleOf, configOf, CONTENDERS, gzipBytes } from './build.mjs';
import { OPS } from './requests.mjs';
import { fixed, machine, ratio, table } from './stats.mjs';

/**
 * The template's gzip bundle (the example server, with jose for the jwt and access modes) must
 * stay under this: measured 46.7 KB on 2026-12-01 (the page at /, the Access and introspection
 * verifiers, the MCP Apps seam and example, sign-in's setting names); see BENCHMARKS.md. With the
 * Skills extension and its example skill, 47.4 KB (48,548 bytes; without the skill 46,898); tools
 * that may take a Standard Schema +291 bytes.
 */
export const BUDGET_BYTES = 48 * 1024;

if (process.argv.includes('--check')) {
  const bundle = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  if (!existsSync(bundle)) throw new Error('dist/index.js is missing: run wrangler deploy --dry-run --outdir dist first');
  const size = gzipBytes(bundle);
  console.log(`bundle size: ${size} bytes gzip (budget ${BUDGET_BYTES})`);
  process.exit(size <= BUDGET_BYTES ? 0 : 1);
}

function coldStart(name) {
  const { method, headers, body } = OPS['tools/call'];
  const script = `
    const t0 = performance.now();
    const worker = await import(${JSON.stringify(pathToFileURL(bundleOf(name)).href)});
    const t1 = performance.now();
    const response = await worker.default.fetch(new Request('http://127.0.0.1/mcp', ${JSON.stringify({ method, headers: { ...headers, host: '127.0.0.1' }, body })}), ${JSON.stringify(readConfig({ config: configOf(name) }, { hideWarnings: true }).vars ?? {})}, { waitUntil() {}, passThroughOnException() {} });
    await response.text();
    console.log(JSON.stringify({ evaluate: t1 - t0, first: performance.now() - t1 }));`;
  const runs = Array.from({ length: 5 }, () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim()));
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[2];
  return { evaluate: median('evaluate'), first: median('first') };
}

console.log(`# Bundle size and start ${new Date().toISOString()}\n\nMachine: ${await machine()}\n`);
buildAll();
const sizes = Object.fromEntries(CONTENDERS.map((name) => [name, gzipBytes(bundleOf(name))]));
const rows = CONTENDERS.map((name) => {
  const start = coldStart(name);
  return [name, String(sizes[name]), ratio(sizes[name], sizes.template), fixed(start.evaluate, 2), fixed(start.first, 2)];
});
console.log(table(['contender', 'bundle gzip bytes', '÷ template', 'evaluate module ms', 'first request ms'], rows));
