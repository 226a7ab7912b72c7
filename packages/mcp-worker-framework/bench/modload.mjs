/**
 * `node bench/modload.mjs [contender…]` (default: shipped fork template): where a cold start's
 * module load goes, by module, for docs/performance.md.
 *
 * - Parse and compile: the bundle's bytes by module (esbuild's metafile of the minified bundle,
 *   built from the contender's `main` with wrangler's settings), and the time Node 22 (the V8 of
 *   workerd, near enough) takes to import the minified bundle before its top level runs: the
 *   import's time less the top-level work below. V8 compiles a function when it is first called,
 *   so what a module costs here is its share of the bytes to pre-parse, plus its functions called
 *   at load.
 * - Top-level work by module: the unminified bundle, with a mark before each module's top-level
 *   code (esbuild puts each module's code after a `// <path>` line, in evaluation order); a
 *   module's time is from its mark to the next, everything its top level calls included.
 * - The first request: a tools/list and then a GET / in the same fresh process, after the load.
 *
 * `--source DIR` measures another checkout's Worker (its root wrangler.toml) instead, as "shipped":
 * the figures before a change, e.g. `git archive <commit> | tar -x -C DIR` with node_modules linked.
 *
 * Each in a fresh Node process (no compile cache), 15 times; the medians. Node is not workerd:
 * the absolute figures differ from the cold start under workerd, the shares do not much.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { unstable_readConfig as readConfig } from 'wrangler';
import { configFromRoot, configOf, root } from './build.mjs';
import { opFor, requestOf } from './requests.mjs';
import { fixed, table } from './stats.mjs';

const RUNS = 15;

/** A module's name: its path under src/ (dist/ for the framework a fork imports by name) or bench/, or its package for node_modules. */
const moduleOf = (path) => {
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (packaged) return packaged[1];
  const source = /(?:^|\/)((?:src|dist|views|build)\/.*)$/.exec(path); // a fork's copy lives in bench/.out/fork-src/
  return source ? source[1] : relative(root, join(root, path)).replace(/^(?:\.\.\/)+/, '');
};

async function bundle(main, minify) {
  const result = await build({
    entryPoints: [main],
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2024',
    external: ['cloudflare:*', 'node:*'],
    minify,
    keepNames: false,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0].text, metafile: result.metafile };
}

/** One fresh process: imports `file`, then answers a first tools/list and a first GET /. */
function once(file, name, vars) {
  const { method, headers, body } = requestOf(opFor(name, 'tools/list'));
  const script = `
    const marks = [];
    globalThis.__mark = (module) => marks.push([module, performance.now()]);
    const env = ${JSON.stringify(vars)};
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} };
    // Node loads its fetch classes on first use: before the clock, as workerd has them built in.
    await new Response(new Request('http://127.0.0.1/', { method: 'POST', body: '{}' }).body).text();
    new Headers({ a: 'b' });
    const t0 = performance.now();
    const worker = await import(${JSON.stringify(pathToFileURL(file).href)});
    const t1 = performance.now();
    await (await worker.default.fetch(new Request('http://127.0.0.1/mcp', ${JSON.stringify({ method, headers: { ...headers, host: '127.0.0.1' }, body })}), env, ctx)).text();
    const t2 = performance.now();
    await (await worker.default.fetch(new Request('http://127.0.0.1/', { headers: { accept: 'text/html' } }), env, ctx)).text();
    const t3 = performance.now();
    console.log(JSON.stringify({ t0, load: t1 - t0, list: t2 - t1, page: t3 - t2, marks }));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop(),
  );
}

const median = (values) => values.sort((a, b) => a - b)[(values.length - 1) >> 1];

/** `configFile`: another configuration for `name`'s requests (e.g. another checkout's, with --source). */
export async function moduleLoad(name, configFile = configOf(name)) {
  const config = readConfig({ config: configFile }, { hideWarnings: true });
  const vars = { ...config.vars, REQUEST_LOGS: 'off' };
  const dir = mkdtempSync(join(tmpdir(), `modload-${name}-`));
  try {
    const minified = await bundle(config.main, true);
    const bytes = {};
    for (const [path, { bytesInOutput }] of Object.entries(Object.values(minified.metafile.outputs)[0].inputs)) {
      bytes[moduleOf(path)] = (bytes[moduleOf(path)] ?? 0) + bytesInOutput;
    }
    const plain = await bundle(config.main, false);
    // A mark before each module's code; a unique comment per run defeats V8's compile cache.
    const marked = `${plain.text.replace(
      /^\/\/ ((?:src|packages|node_modules|bench|views|build|\.\.)\S*)$/gm,
      (line, path) => `globalThis.__mark?.(${JSON.stringify(moduleOf(path))});\n${line}`,
    )}\nglobalThis.__mark?.("(end)");\n`;
    const loads = [];
    const work = {};
    const firsts = { list: [], page: [] };
    for (let run = 0; run < RUNS; run++) {
      const file = join(dir, `min-${run}.js`);
      writeFileSync(file, `${minified.text}\n// run ${run}\n`);
      const plainRun = once(file, name, vars);
      loads.push(plainRun.load);
      firsts.list.push(plainRun.list);
      firsts.page.push(plainRun.page);
      const markedFile = join(dir, `marked-${run}.js`);
      writeFileSync(markedFile, `${marked}\n// run ${run}\n`);
      const { marks } = once(markedFile, name, vars);
      const spent = {};
      for (let i = 0; i + 1 < marks.length; i++)
        spent[marks[i][0]] = (spent[marks[i][0]] ?? 0) + marks[i + 1][1] - marks[i][1];
      for (const [module, ms] of Object.entries(spent)) (work[module] ??= []).push(ms);
    }
    const topLevel = Object.fromEntries(Object.entries(work).map(([module, times]) => [module, median(times)]));
    const totalWork = Object.values(topLevel).reduce((a, b) => a + b, 0);
    const load = median(loads);
    return {
      bytes,
      topLevel,
      load,
      compile: load - totalWork,
      totalWork,
      list: median(firsts.list),
      page: median(firsts.page),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  // --source DIR: the Worker of another checkout (its wrangler.toml), measured as "shipped", e.g. a commit before a change.
  const source = args.includes('--source') ? args.splice(args.indexOf('--source'), 2)[1] : undefined;
  const names = source ? ['shipped'] : args.length ? args : ['shipped', 'fork', 'template'];
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  for (const name of names) {
    const r = await moduleLoad(
      name,
      source ? configFromRoot(source, join(mkdtempSync(join(tmpdir(), 'modload-')), 'wrangler.toml')) : undefined,
    );
    const totalBytes = Object.values(r.bytes).reduce((a, b) => a + b, 0);
    console.log(
      `\n#### ${name}: import ${fixed(r.load, 2)} ms (parse/compile and linking ≈ ${fixed(r.compile, 2)} ms, top-level work ≈ ${fixed(r.totalWork, 2)} ms); then the first tools/list ${fixed(r.list, 2)} ms, the first GET / ${fixed(r.page, 2)} ms\n`,
    );
    const modules = [...new Set([...Object.keys(r.bytes), ...Object.keys(r.topLevel)])].filter((m) => m !== '(end)');
    const rows = modules
      .map((m) => [m, r.bytes[m] ?? 0, r.topLevel[m] ?? 0])
      .sort((a, b) => b[2] - a[2] || b[1] - a[1])
      .filter(([, b, t], i) => i < 25 || t >= 0.05 || b >= 2000);
    console.log(
      table(
        ['module', 'minified bytes', 'share of bytes', 'top-level work ms (median)'],
        rows.map(([m, b, t]) => [m, String(b), `${fixed((100 * b) / totalBytes, 1)}%`, fixed(t, 3)]),
      ),
    );
  }
}
