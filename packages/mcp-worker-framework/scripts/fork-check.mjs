/**
 * `npm run test:fork`: proves a fork stays green through the README. In a copy of the repository
 * (tracked files and untracked ones git does not ignore, the workspace's node_modules linked) it
 * does what the README tells a new owner to do, literally:
 *
 * 1. "Make it yours": deletes what "Delete the examples" names, renames as "Names" says, adds the
 *    tool of "Add a tool", the tests of "Test your tool" and the view of "Add a view" (the tool
 *    linked to it) exactly as the README shows them, and writes its own README over ours.
 * 2. Its CI: every command of its .github/workflows/ci.yml is a script of its package.json, and
 *    framework.yml skips the checks that follow "Make it yours" from the examples it deleted.
 * 3. Four rounds, each `npm run cf-typegen`, `npm run check` and `npm test`, green: as made; with
 *    sign-in turned on as docs/sign-in.md says; with tasks turned on too, as docs/tasks.md says;
 *    with events turned on too, as docs/events.md says.
 *    Each round's README tests must have run and passed, and its test time is reported.
 * 4. Its view built into one file, its skills gone, its server.json, Server Card and page naming
 *    the fork and its tool.
 *
 * Any step that fails fails the check loudly (scripts/steps.mjs); FORK_CHECK_KEEP=1 keeps the copy.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import {
  addImport,
  addReadmeTests,
  addReadmeTool,
  copyRepository,
  editFile,
  makeItYours,
  readmeFiles as readmeBlocks,
} from './forkCopy.mjs';
import { loadWorker, noContext } from './loadWorker.mjs';
import { stepRunner } from './steps.mjs';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const root = join(pkg, '..', '..');
const FORK_NAME = 'my-fork-server';
/** The fork's name in the Server Card and the MCP Registry (reverse DNS). */
const FORK_CARD_NAME = `io.github.my-fork-org/${FORK_NAME}`;
const FORK_URL = `https://${FORK_NAME}.my-account.workers.dev/mcp`;
/** Upper bounds, so CI never hangs on a stuck step. */
const LIMITS_MS = { check: 5 * 60_000, test: 10 * 60_000 };

const parent = mkdtempSync(join(tmpdir(), 'mcp-fork-'));
const fork = join(parent, 'repo');
mkdirSync(fork);
const steps = stepRunner('fork check', { keep: fork });
const { fail } = steps;

/** Replaces `pattern` in a file of the copy; a pattern that no longer matches means the template drifted from this script. */
const edit = (file, pattern, replacement) => editFile(fork, file, pattern, replacement, fail);
const read = (file) => readFileSync(join(fork, file), 'utf8');

/** The ```ts and ```html blocks of a README section whose first line names their file. */
const readmeFiles = (heading) => readmeBlocks(root, heading, fail);

/** A doc of the framework (docs/<name>), which must still say `said` for this script to follow it. */
function docSays(doc, said) {
  const text = readFileSync(join(pkg, 'docs', doc), 'utf8');
  for (const words of said) if (!text.includes(words)) fail(`follow docs/${doc}`, `it no longer says ${words}`);
}

/** Uncomments the block of wrangler.toml that starts at the comment line `# <first>`: its TOML lines, up to the next blank line after it. */
function uncommentBlock(first) {
  const toml = read('wrangler.toml');
  const start = toml.indexOf(`\n# ${first}\n`);
  if (start < 0) fail('uncomment a block of wrangler.toml', `no commented line "${first}"`);
  const end = toml.indexOf('\n\n', start + 1);
  const block = toml.slice(start, end < 0 ? undefined : end).replace(/^# ?((?:\[\[?[\w.]+\]\]?|[\w]+ = .*)?)$/gm, '$1');
  writeFileSync(join(fork, 'wrangler.toml'), toml.slice(0, start) + block + (end < 0 ? '' : toml.slice(end)));
}

/** Sets a var of [vars] in wrangler.toml: replaces its line, or adds it after AUTH_MODE. */
function setVar(name, value) {
  const line = `${name} = ${JSON.stringify(value)}`;
  const toml = read('wrangler.toml');
  if (new RegExp(`^${name} = `, 'm').test(toml)) edit('wrangler.toml', new RegExp(`^${name} = .*$`, 'm'), line);
  else edit('wrangler.toml', /^(AUTH_MODE = .*)$/m, `$1\n${line}`);
}

const testTimes = [];
/** A round: the README's checks of a fork, green, and the README's tests run. */
async function round(when, tests) {
  // A fork that changes its vars regenerates their types, as the README says.
  await steps.run(`npm run cf-typegen (${when})`, 'npm', ['run', 'cf-typegen'], {
    cwd: fork,
    limitMs: LIMITS_MS.check,
  });
  await steps.run(`npm run check (${when})`, 'npm', ['run', 'check'], { cwd: fork, limitMs: LIMITS_MS.check });
  const output = await steps.run(`npm test (${when})`, 'npm', ['test'], { cwd: fork, limitMs: LIMITS_MS.test });
  // vitest lists each file it ran with a ✓; a README test that silently did not run must fail the check.
  for (const { path } of tests)
    if (!output.includes(`✓ ${path} (`)) fail(`npm test (${when})`, `${path} from the README did not run and pass`);
  const vitest = /Duration\s+([\d.]+\s*m?s)/.exec(output)?.[1];
  testTimes.push(`${when}: npm test ${(steps.took(`npm test (${when})`) / 1000).toFixed(1)} s (vitest: ${vitest})`);
}

// 1. A copy of what a clone has, with this checkout's node_modules (a symlink: no install, same versions).
await steps.time('copy the repository', () => copyRepository(root, fork));

// Make it yours: what "Delete the examples" names deleted, the names of "Names" (scripts/forkCopy.mjs).
const deleted = makeItYours(fork, { name: FORK_NAME, cardName: FORK_CARD_NAME }, fail);

// Add a tool and its tests, exactly as the README shows them.
const tool = addReadmeTool(root, fork, fail);
const tests = addReadmeTests(root, fork, fail);

// Add a view, as the README shows it, and link the README's tool to it as the README says.
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
const viewModule = declared.path.slice('src/resources/'.length, -3);
addImport(fork, 'src/server.ts', `import { ${viewName} } from './resources/${viewModule}';`, fail);
edit('src/server.ts', /^(\s+)resources: \[\],/m, `$1resources: [${viewName}],`);
addImport(fork, tool.path, `import { ${viewName} } from '../resources/${viewModule}';`, fail);
edit(tool.path, /^(\s+)(inputSchema: )/m, `$1ui: { resourceUri: ${viewName}.uri },\n$1$2`);

// Its own README, ours gone entirely: nothing of the fork's checks may read ours.
writeFileSync(
  join(fork, 'README.md'),
  `# ${FORK_NAME}\n\nAn MCP server that greets people by name, at ${FORK_URL}.\n\n\`\`\`sh\nnpm test\n\`\`\`\n`,
);
console.log(
  `fork check: ${fork}\n  deleted ${deleted.join(', ')}; renamed to ${FORK_NAME}; added ${[tool, ...tests, ...view].map((f) => f.path).join(', ')}; README.md its own`,
);

// 2. Its CI expects nothing it deleted: ci.yml runs its own scripts; framework.yml skips the
// checks that start from the examples (its layout job, run here as GitHub would).
await steps.time("the fork's CI", () => {
  const scripts = JSON.parse(read('package.json')).scripts;
  const workflow = (name) => parse(read(`.github/workflows/${name}`));
  const runs = (job) => job.steps.flatMap((step) => (step.run ? [step.run] : []));
  for (const command of Object.values(workflow('ci.yml').jobs).flatMap(runs)) {
    const script = /^npm (?:test|run ([\w:-]+))/.exec(command);
    if (script && !scripts[script[1] ?? 'test'])
      throw new Error(`ci.yml runs "${command}": no such script in package.json`);
  }
  const framework = workflow('framework.yml');
  const outputs = join(parent, 'github-output');
  writeFileSync(outputs, '');
  execFileSync('bash', ['-ec', runs(framework.jobs.layout).join('\n')], {
    cwd: fork,
    env: { ...process.env, GITHUB_OUTPUT: outputs },
  });
  const layout = Object.fromEntries(
    readFileSync(outputs, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('=')),
  );
  if (layout.template !== 'no') throw new Error(`framework.yml's layout says template=${layout.template} in a fork`);
  for (const [name, job] of Object.entries(framework.jobs)) {
    const skipped = job.if?.includes("needs.layout.outputs.template == 'yes'");
    if (runs(job).some((command) => /test:fork|test:packed/.test(command)) && !skipped)
      throw new Error(`framework.yml's job ${name} runs the fork or packed check in a fork`);
  }
});

// 3. Round one: the fork as made.
await round('as made', tests);

// The README's view was built into one self-contained file, where the Worker reads it.
const built = join(fork, 'build', 'views', `${viewPage}.html`);
if (!existsSync(built)) fail('add a view', `${relative(fork, built)} was not built`);
if (!/^<!doctype html>[\s\S]*<script type="module">[\s\S]+<\/script>/i.test(readFileSync(built, 'utf8')))
  fail('add a view', `${relative(fork, built)} has no inline script`);
// Without the example skill, npm run check remade skills/index.ts to serve none.
if (/plan-a-meeting/.test(read('skills/index.ts')))
  fail('delete the examples', 'skills/index.ts still lists the example skill after npm run check ran');

// How the fork is found: its server.json, Server Card and page name it and list its tool.
await steps.run('npm run registry', 'npm', ['run', 'registry', '--', '--url', FORK_URL], {
  cwd: fork,
  limitMs: LIMITS_MS.check,
});
const serverJson = JSON.parse(read('server.json'));
if (serverJson.name !== FORK_CARD_NAME || serverJson.remotes?.[0]?.url !== FORK_URL) {
  fail(
    'npm run registry',
    `server.json names ${serverJson.name} at ${serverJson.remotes?.[0]?.url}, not ${FORK_CARD_NAME} at ${FORK_URL}`,
  );
}
await steps.time('the Server Card and the page', async () => {
  const { worker, settings } = await loadWorker(join(fork, 'wrangler.toml'));
  const env = { ...settings.vars, MCP_STATE_SECRET: 'fork check' };
  const card = await (await worker.fetch(new Request('http://localhost/mcp/server-card'), env, noContext)).json();
  const page = await (
    await worker.fetch(new Request('http://localhost/', { headers: { Accept: 'text/html' } }), env, noContext)
  ).text();
  if (card.name !== FORK_CARD_NAME) throw new Error(`the Server Card names ${card.name}, not ${FORK_CARD_NAME}`);
  if (!page.includes(`<code>${tool.toolName}</code>`) || !page.includes(FORK_NAME))
    throw new Error(`the page at / does not show ${FORK_NAME} and its tool ${tool.toolName}`);
});

// 4. Round two: sign-in on, as docs/sign-in.md says (GitHub): signIn() in `auth` of src/index.ts,
// the sign-in block of wrangler.toml uncommented, AUTH_MODE = "signin", LOGIN_PROVIDER,
// AUTH_RESOURCE and LOGIN_CLIENT_ID set.
docSays('sign-in.md', [
  'signIn(',
  'AUTH_MODE = "signin"',
  'LOGIN_PROVIDER = "github"',
  'LOGIN_CLIENT_ID',
  'AUTH_RESOURCE',
]);
addImport(fork, 'src/index.ts', "import { signIn } from 'mcp-worker-framework/signin';", fail);
edit('src/index.ts', /^(\s+auth: \[[^\]]*)\]/m, '$1, signIn()]');
uncommentBlock('[[kv_namespaces]]');
setVar('AUTH_MODE', 'signin');
setVar('LOGIN_PROVIDER', 'github');
setVar('AUTH_RESOURCE', FORK_URL);
setVar('LOGIN_CLIENT_ID', 'my-github-oauth-app');
await round('sign-in on', tests);

// 5. Round three: tasks on too, as docs/tasks.md says: tasks() in `extensions` of src/index.ts,
// its Durable Object class exported as McpTask, the tasks block of wrangler.toml uncommented;
// the README's tool takes part with task: 'optional'.
docSays('tasks.md', ['tasks()', 'McpTask', "task: 'optional'", 'MCP_TASKS']);
addImport(fork, 'src/index.ts', "import { tasks } from 'mcp-worker-framework/tasks';", fail);
edit('src/index.ts', /^(\s+extensions: \[[^\]]*)\]/m, '$1, tasks()]');
if (!/^export class McpTask /m.test(read('src/index.ts')))
  edit('src/index.ts', /^(export default )/m, 'export class McpTask extends worker.McpTask {}\n\n$1');
uncommentBlock('[[durable_objects.bindings]]\n# name = "MCP_TASKS"');
edit(tool.path, /^(\s+)(inputSchema: )/m, "$1task: 'optional',\n$1$2");
await round('sign-in and tasks on', tests);

// 6. Round four: events on too, as docs/events.md says: its event type in a file of its own,
// events({ types }) in `extensions` of src/index.ts, its class exported as McpEvents, the events
// block of wrangler.toml uncommented (authorization is on already: sign-in).
docSays('events.md', ['events({ types: [incidentCreated] })', 'export class McpEvents extends worker.McpEvents {}']);
const eventType = /## Turn it on[\s\S]*?```ts\n([\s\S]*?)```/.exec(
  readFileSync(join(pkg, 'docs', 'events.md'), 'utf8'),
);
if (!eventType) fail('follow docs/events.md', 'its first step shows no event type');
writeFileSync(join(fork, 'src', 'incident-created.ts'), eventType[1].replace(/^ {3}/gm, ''));
addImport(fork, 'src/index.ts', "import { events } from 'mcp-worker-framework/events';", fail);
addImport(fork, 'src/index.ts', "import { incidentCreated } from './incident-created';", fail);
edit('src/index.ts', /^(\s+extensions: \[[^\]]*)\]/m, '$1, events({ types: [incidentCreated] })]');
if (!/^export class McpEvents /m.test(read('src/index.ts')))
  edit('src/index.ts', /^(export default )/m, 'export class McpEvents extends worker.McpEvents {}\n\n$1');
uncommentBlock('[[durable_objects.bindings]]\n# name = "MCP_EVENTS"');
await round('sign-in, tasks and events on', tests);

if (!process.env.FORK_CHECK_KEEP) rmSync(parent, { recursive: true, force: true });
console.log(`\nfork test times:\n  ${testTimes.join('\n  ')}`);
steps.done(
  "a fork made by following the README (examples deleted, renamed, the README's tool, tests and view, its own README) is green, then with sign-in on, then with tasks on too, then with events on too",
);
