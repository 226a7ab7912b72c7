/**
 * Builds every contender's production bundle with `wrangler deploy --dry-run` (what would be
 * deployed) into bench/.out/<name>/, and the template with 10, 100 and 1,000 tools. The peers
 * (the SDK, agents, zod) come from bench/node_modules, installed here from bench/package-lock.json.
 *
 * Two contenders are what a forker ships, built from the template at the repository's root (its
 * wrangler.toml, whatever its `main`; the framework through the package's name, as a fork
 * imports it): "shipped", the default Worker with its examples, and "fork", the same after the
 * README's deletion step and its "Add a tool" tool, applied to a copy in bench/.out/fork-src
 * (scripts/forkCopy.mjs, as `npm run test:fork` does). Their configuration is the root's with
 * its `[[ratelimits]]` blocks removed (a local rate-limit binding keys every anonymous request
 * alike and would refuse the load), without `[build]` and `[assets]` (the views' pages are static
 * assets, not part of the script, and no benchmark request reads one), and with
 * MCP_STATE_SECRET set: bench/.out/<name>.wrangler.toml.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { addReadmeTool, copyRepository, examplesOf, makeItYours } from '../scripts/forkCopy.mjs';

export const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const wrangler = join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js');

export const CONTENDERS = [
  'shipped',
  'fork',
  'template',
  'sdk',
  'agents',
  'bare',
  'bare-parse',
  'bare-checks',
  'bare-pipeline',
];
/** Contenders whose configuration is made from the repository's root wrangler.toml. */
export const FROM_ROOT = ['shipped', 'fork'];
export const GROWTH = [10, 100, 1000];
/** The template: the repository's root, around this package (packages/<name>/bench). */
export const root = resolve(here, '../../..');
export const outDir = (name) => join(here, '.out', name);
export const configOf = (name) =>
  FROM_ROOT.includes(name)
    ? join(here, '.out', `${name}.wrangler.toml`)
    : join(here, 'contenders', `${name.startsWith('growth') ? 'growth' : name}.wrangler.toml`);
/** The tool the fork's tools/call calls: the README's "Add a tool" tool (bench/requests.mjs). */
export const FORK_TOOL = 'greet';

/** Drops every `[name]` or `[[name]]` table of a TOML text, with its lines up to the next table. */
const withoutTables = (toml, names) => {
  const drop = new RegExp(`^\\[{1,2}(?:${names.join('|')})\\]{1,2}\\s*$`);
  let dropping = false;
  return toml
    .split('\n')
    .filter((line) => {
      if (/^\[/.test(line)) dropping = drop.test(line);
      return !dropping;
    })
    .join('\n');
};

/**
 * The benchmark's configuration for the Worker of `source` (a repository): its wrangler.toml with
 * `main` made absolute, no rate limiters, build step or assets, and MCP_STATE_SECRET in [vars].
 */
export function configFromRoot(source, out) {
  const toml = readFileSync(join(source, 'wrangler.toml'), 'utf8');
  const main = /^main = "([^"]+)"/m.exec(toml)?.[1];
  if (!main) throw new Error(`${join(source, 'wrangler.toml')} has no main`);
  let config = withoutTables(toml, ['ratelimits', 'build', 'assets', 'assets\\..*']).replace(
    /^main = "[^"]+"/m,
    `main = ${JSON.stringify(resolve(source, main))}`,
  );
  config = /^\[vars\]$/m.test(config)
    ? config.replace(/^\[vars\]$/m, '[vars]\nMCP_STATE_SECRET = "bench"')
    : `${config}\n[vars]\nMCP_STATE_SECRET = "bench"\n`;
  if (/^\[\[ratelimits\]\]/m.test(config)) throw new Error('rate limiters left in the benchmark configuration');
  writeFileSync(out, config);
  return out;
}

function build(name, defines = [], configure = () => {}) {
  const out = outDir(name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  configure();
  execFileSync(process.execPath, [wrangler, 'deploy', '--dry-run', '-c', configOf(name), '--outdir', out, ...defines], {
    stdio: 'ignore',
  });
  return out;
}

/** The bundle's main module. */
export function bundleOf(name) {
  const dir = outDir(name);
  return join(
    dir,
    readdirSync(dir).find((f) => f.endsWith('.js') && !f.endsWith('.map')),
  );
}

export const gzipBytes = (file) => gzipSync(readFileSync(file), { level: 9 }).byteLength;

/** `npm ci` in bench/ when its node_modules is missing or older than its lockfile. */
export function ensurePeers() {
  const installed = join(here, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(here, 'package-lock.json')).mtimeMs) return;
  console.error('installing the benchmark peers (npm ci in bench/)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: here, stdio: 'inherit' });
}

/** Whether `dir` still has the examples its README's "Make it yours" deletes (a fork has neither). */
function hasExamples(dir) {
  try {
    return examplesOf(dir).length > 0;
  } catch {
    return false;
  }
}

/**
 * "shipped": the root's Worker as it is. "fork": a copy made the README's way, in
 * bench/.out/fork-src (kept, for bench/modload.mjs and a look; remade on every build).
 */
function buildFromRoot(name) {
  // In a fork (the examples gone, as the README's step leaves it), the fork is the root's Worker itself.
  if (name === 'shipped' || !hasExamples(root)) return build(name, [], () => configFromRoot(root, configOf(name)));
  const fork = join(here, '.out', 'fork-src');
  rmSync(fork, { recursive: true, force: true });
  mkdirSync(fork, { recursive: true });
  copyRepository(root, fork);
  makeItYours(fork, { name: 'my-fork-server', cardName: 'io.github.my-fork-org/my-fork-server' });
  const { toolName } = addReadmeTool(root, fork);
  // The skills' manifest (skills/index.ts) made again without the example skill, as the fork's build would.
  execFileSync(process.execPath, [join(here, '..', 'scripts', 'build-skills.mjs')], { cwd: fork, stdio: 'ignore' });
  if (toolName !== FORK_TOOL)
    throw new Error(
      `the README's tool is ${toolName}, the benchmark calls ${FORK_TOOL}: update FORK_TOOL and bench/requests.mjs`,
    );
  return build(name, [], () => configFromRoot(fork, configOf(name)));
}

/** Builds one contender of CONTENDERS (the peers must be installed for sdk and agents). */
export const buildOne = (name) => (FROM_ROOT.includes(name) ? buildFromRoot : build)(name);

export function buildAll() {
  ensurePeers();
  for (const name of CONTENDERS) buildOne(name);
  for (const count of GROWTH) build(`growth-${count}`, ['--define', `TOOL_COUNT:${count}`]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildAll();
  for (const name of CONTENDERS) console.log(`${name}: ${gzipBytes(bundleOf(name))} bytes gzip`);
}
