/**
 * `npm run test:fork`: proves a fork stays green. In a copy of this repository (tracked files and
 * untracked ones git does not ignore) it does what the README tells a new owner to do: deletes
 * the examples and their tests (the example view's page and the example skill too), renames the server and the
 * package, adds the tool of "Add a tool", the tests of "Test your tool" and the view of "Add a
 * view" (the tool linked to it) exactly as the README shows them, then runs `npm run check` and
 * `npm test`, checks the view was built into one self-contained file, and that its server.json
 * (`npm run registry`), Server Card and page name the fork's server and its tool. Any step that fails, or a README test that does not run, fails
 * the check loudly. FORK_CHECK_KEEP=1 keeps the copy for a post-mortem.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  addReadmeTool,
  copyRepository,
  editFile,
  EXAMPLES,
  makeItYours,
  readmeFiles as readmeBlocks,
} from './forkCopy.mjs';
import { loadWorker, noContext } from './loadWorker.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const FORK_NAME = 'my-fork-server';
/** The fork's name in the Server Card and the MCP Registry (reverse DNS). */
const FORK_CARD_NAME = `io.github.my-fork-org/${FORK_NAME}`;
/** Upper bounds, so CI never hangs on a stuck step. */
const LIMITS_MS = { check: 5 * 60_000, test: 10 * 60_000 };

const started = Date.now();
// The copy gets the checkout's surroundings too: `npm run check` reads the spec from ../shared/spec
// (scripts/spec-coverage.mjs), laid out beside the repository as in CI.
const parent = mkdtempSync(join(tmpdir(), 'mcp-fork-'));
const fork = join(parent, 'repo');
mkdirSync(fork);
if (existsSync(join(root, '../shared'))) symlinkSync(join(root, '../shared'), join(parent, 'shared'), 'dir');

function fail(step, why) {
  console.error(`\nfork check FAILED at "${step}": ${why}\n(the copy is in ${fork})`);
  process.exit(1);
}

/** Replaces `pattern` in a file of the copy; a pattern that no longer matches means the template drifted from this script. */
const edit = (file, pattern, replacement) => editFile(fork, file, pattern, replacement, fail);

/** The ```ts and ```html blocks of a README section whose first line names their file. */
const readmeFiles = (heading) => readmeBlocks(root, heading, fail);

/** Runs an npm script in the copy, its output streamed; returns the output for inspection. */
function run(step, args, limitMs) {
  console.log(`\n── fork check: npm ${args.join(' ')} ──`);
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: fork, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (stream, sink) => stream.on('data', (chunk) => ((output += chunk), sink.write(chunk)));
    collect(child.stdout, process.stdout);
    collect(child.stderr, process.stderr);
    const timer = setTimeout(() => {
      process.kill(-child.pid, 'SIGKILL');
      fail(step, `still running after ${limitMs / 1000} s`);
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) fail(step, `npm ${args.join(' ')} exited with ${code}`);
      resolve(output);
    });
  });
}

// 1. A copy of what a clone has, with this checkout's node_modules (a symlink: no install, same versions).
copyRepository(root, fork);

// 2. Make it yours: no examples, a new name, the example's upstream var gone (scripts/forkCopy.mjs).
makeItYours(fork, { name: FORK_NAME, cardName: FORK_CARD_NAME }, fail);

// 3. Add a tool and its tests, exactly as the README shows them.
const tool = addReadmeTool(root, fork, fail);
const tests = readmeFiles('Test your tool');
for (const { path, code } of tests) {
  mkdirSync(dirname(join(fork, path)), { recursive: true });
  writeFileSync(join(fork, path), code);
}

// 4. Add a view, as the README shows it, and link the README's tool to it as the README says.
const view = readmeFiles('Add a view');
for (const { path, code } of view) {
  mkdirSync(dirname(join(fork, path)), { recursive: true });
  writeFileSync(join(fork, path), code);
}
const declared = view.find((f) => f.path.startsWith('src/resources/'));
const viewName = declared && /export const (\w+)/.exec(declared.code)?.[1];
const viewPage = declared && /page: '([\w-]+)'/.exec(declared.code)?.[1];
if (!viewName || !viewPage)
  fail('add a view', 'the README\'s "Add a view" declares no view in src/resources/ with a page');
edit(
  'src/server.ts',
  /^(import .* from '\.\/mcp';\n)/m,
  `$1import { ${viewName} } from './resources/${declared.path.slice('src/resources/'.length, -3)}';\n`,
);
edit('src/server.ts', /^(\s+)resources: \[\],/m, `$1resources: [${viewName}],`);
edit(
  tool.path,
  /^(import .*\n)/m,
  `$1import { ${viewName} } from '../resources/${declared.path.slice('src/resources/'.length, -3)}';\n`,
);
edit(tool.path, /^(\s+)(inputSchema: )/m, `$1ui: { resourceUri: ${viewName}.uri },\n$1$2`);
console.log(
  `fork check: ${fork}\n  deleted ${EXAMPLES.join(', ')}; renamed to ${FORK_NAME}; added ${[tool, ...tests, ...view].map((f) => f.path).join(', ')}`,
);

// 5. The fork's own checks, as its CI would run them.
// A fork that changes its vars regenerates their types, as the README says.
await run('npm run cf-typegen', ['run', 'cf-typegen'], LIMITS_MS.check);
await run('npm run check', ['run', 'check'], LIMITS_MS.check);
const output = await run('npm test', ['test'], LIMITS_MS.test);
for (const { path } of tests) {
  // vitest lists each file it ran with a ✓; a README test that silently did not run must fail the check.
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  if (!plain.includes(`✓ ${path} (`)) fail('npm test', `${path} from the README did not run and pass`);
}

// The README's view was built into one self-contained file, where the Worker reads it.
const built = join(fork, 'build', 'views', `${viewPage}.html`);
if (!existsSync(built)) fail('add a view', `${relative(fork, built)} was not built`);
if (!/^<!doctype html>[\s\S]*<script type="module">[\s\S]+<\/script>/i.test(readFileSync(built, 'utf8')))
  fail('add a view', `${relative(fork, built)} has no inline script`);

// Without the example skill, npm run check remade skills/index.ts to serve none: no extension, nothing in the bundle.
if (
  !readFileSync(join(fork, 'skills', 'index.ts'), 'utf8').includes('export const skills: readonly Extension[] = [];')
) {
  fail(
    'delete the examples',
    'skills/index.ts still lists skills after the example skill was deleted and npm run check ran',
  );
}

// 6. How the fork is found: its server.json, Server Card and page name it and list its tool.
const url = `https://${FORK_NAME}.my-account.workers.dev/mcp`;
await run('npm run registry', ['run', 'registry', '--', '--url', url], LIMITS_MS.check);
const serverJson = JSON.parse(readFileSync(join(fork, 'server.json'), 'utf8'));
if (serverJson.name !== FORK_CARD_NAME || serverJson.remotes?.[0]?.url !== url) {
  fail(
    'npm run registry',
    `server.json names ${serverJson.name} at ${serverJson.remotes?.[0]?.url}, not ${FORK_CARD_NAME} at ${url}`,
  );
}
const { toolName } = tool;
const { worker, settings } = await loadWorker(join(fork, 'wrangler.toml'));
const env = { ...settings.vars, MCP_STATE_SECRET: 'fork check' };
const card = await (await worker.fetch(new Request('http://localhost/mcp/server-card'), env, noContext)).json();
const page = await (
  await worker.fetch(new Request('http://localhost/', { headers: { Accept: 'text/html' } }), env, noContext)
).text();
if (card.name !== FORK_CARD_NAME) fail('the Server Card', `it names ${card.name}, not ${FORK_CARD_NAME}`);
if (!page.includes(`<code>${toolName}</code>`) || !page.includes(FORK_NAME))
  fail('the page at /', `it does not show ${FORK_NAME} and its tool ${toolName}`);
console.log(`fork check: server.json, the Server Card and the page name ${FORK_CARD_NAME}; the page lists ${toolName}`);

if (!process.env.FORK_CHECK_KEEP) rmSync(parent, { recursive: true, force: true });
console.log(
  `\nfork check passed in ${Math.round((Date.now() - started) / 1000)} s: a fork without the examples, renamed, with the README's tool, tests and view, is green.`,
);
