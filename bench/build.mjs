/**
 * Builds every contender's production bundle with `wrangler deploy --dry-run` (what would be
 * deployed) into bench/.out/<name>/, and the template with 10, 100 and 1,000 tools. The peers
 * (the SDK, agents, zod) come from bench/node_modules, installed here from bench/package-lock.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const wrangler = join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js');

export const CONTENDERS = ['template', 'sdk', 'agents', 'bare', 'bare-parse', 'bare-checks', 'bare-pipeline'];
export const GROWTH = [10, 100, 1000];
export const outDir = (name) => join(here, '.out', name);
export const configOf = (name) => join(here, 'contenders', `${name.startsWith('growth') ? 'growth' : name}.wrangler.toml`);

function build(name, defines = []) {
  const out = outDir(name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  execFileSync(process.execPath, [wrangler, 'deploy', '--dry-run', '-c', configOf(name), '--outdir', out, ...defines], { stdio: 'ignore' });
  return out;
}

/** The bundle's main module. */
export function bundleOf(name) {
  const dir = outDir(name);
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.js') && !f.endsWith('.map')));
}

export const gzipBytes = (file) => gzipSync(readFileSync(file), { level: 9 }).byteLength;

/** `npm ci` in bench/ when its node_modules is missing or older than its lockfile. */
export function ensurePeers() {
  const installed = join(here, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(here, 'package-lock.json')).mtimeMs) return;
  console.error('installing the benchmark peers (npm ci in bench/)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: here, stdio: 'inherit' });
}

export function buildAll() {
  ensurePeers();
  for (const name of CONTENDERS) build(name);
  for (const count of GROWTH) build(`growth-${count}`, ['--define', `TOOL_COUNT:${count}`]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildAll();
  for (const name of CONTENDERS) console.log(`${name}: ${gzipBytes(bundleOf(name))} bytes gzip`);
}
