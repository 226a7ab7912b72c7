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
 * 3. Rounds, each `npm run cf-typegen`, `npm run check` and `npm test` green (and
 *    `npm run test:browser`, where Chromium is installed): with the examples deleted and nothing
 *    of its own yet (no tools, no resources, no prompts: "Delete the examples" says all stay
 *    green); as made; with bearer auth as the README's "Authorization" says (testing.md's tests
 *    of it pasted in); with sign-in turned on as docs/sign-in.md says; with tasks turned on too,
 *    as docs/tasks.md says; with notifications on as docs/notifications.md says (the docs' tool
 *    that notifies and their tests of it pasted in); with events on as docs/events.md says. Each
 *    round's pasted tests must have run and passed, and its test time is reported.
 * 4. Its view built into one file, its skills gone, its server.json, Server Card and page naming
 *    the fork and its tool; with bearer on, its server.json and page name the header to send.
 * 5. The fork moved to the package as npm packs it, by the README's one command
 *    (`mcp-worker use-published`), its own install with no install-script warning: green again,
 *    and the package importable in Node as ESM.
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
  makeItYoursStep,
  markdownFiles,
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
const LIMITS_MS = { check: 5 * 60_000, test: 10 * 60_000, install: 10 * 60_000 };
/** `npm run test:browser` runs where a Chromium is (CI installs Debian's); elsewhere it is said, not hidden. */
const chromium = Boolean(
  process.env.CHROMIUM_PATH || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].some((path) => existsSync(path)),
);

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

/** The blocks of a doc's section whose first line names their file, written into the fork as they are. */
function pasteDocFiles(doc, heading) {
  const files = markdownFiles(join(pkg, 'docs', doc), heading, fail);
  for (const { path, code } of files) {
    mkdirSync(dirname(join(fork, path)), { recursive: true });
    writeFileSync(join(fork, path), code);
  }
  return files;
}

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

/** The text of a step of the README's "Make it yours". */
const makeItYoursStepText = (title) => makeItYoursStep(root, title, fail);

/** Sets a var of [vars] in wrangler.toml: replaces its line, or adds it first under [vars]. */
function setVar(name, value) {
  const line = `${name} = ${JSON.stringify(value)}`;
  const toml = read('wrangler.toml');
  if (new RegExp(`^${name} = `, 'm').test(toml)) edit('wrangler.toml', new RegExp(`^${name} = .*$`, 'm'), line);
  else edit('wrangler.toml', /^(\[vars\])$/m, `$1\n${line}`);
}

const testTimes = [];
/** A round: the README's checks of a fork, green, and the pasted tests run. */
async function round(when, tests, { browser = chromium } = {}) {
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
  if (browser)
    await steps.run(`npm run test:browser (${when})`, 'npm', ['run', 'test:browser'], {
      cwd: fork,
      limitMs: LIMITS_MS.test,
    });
  else console.log(`fork check: no Chromium here: npm run test:browser (${when}) not run`);
}

// 1. A copy of what a clone has, with this checkout's node_modules (a symlink: no install, same versions).
await steps.time('copy the repository', () => copyRepository(root, fork));

// Make it yours: what "Delete the examples" names deleted, the names of "Names" (scripts/forkCopy.mjs).
const deleted = makeItYours(fork, { name: FORK_NAME, cardName: FORK_CARD_NAME }, fail);

// Round zero: the examples deleted, nothing of its own yet: a server with no tools, no resources
// and no prompts, which "Delete the examples" says stays green.
const emptyLists = read('src/server.ts');
for (const list of ['tools', 'resources', 'resourceTemplates', 'prompts'])
  if (!new RegExp(`^\\s+${list}: \\[\\],`, 'm').test(emptyLists))
    fail('delete the examples', `src/server.ts has no empty ${list}`);
await round('examples deleted, nothing served', []);

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

// 4. Bearer auth, as the README's "Authorization" says (bearer added to `auth` of src/index.ts, the
// one mode listed, served with no AUTH_MODE; the secret MCP_BEARER_TOKEN), tested as testing.md
// says: its spec check given the credentials, its test of them.
docSays('testing.md', ["AUTH_MODE: 'bearer'", 'MCP_BEARER_TOKEN', 'specCheck(worker, {']);
const authorization = makeItYoursStepText('Authorization');
if (
  !authorization.includes('add `bearer` to `auth` (`auth: [bearer]`') ||
  !authorization.includes('`MCP_BEARER_TOKEN`')
)
  fail(
    'follow the README',
    'its "Authorization" step no longer says to add bearer to auth (`auth: [bearer]`) and set the secret MCP_BEARER_TOKEN',
  );
addImport(fork, 'src/index.ts', "import { bearer } from 'mcp-worker-framework/auth';", fail);
edit('src/index.ts', /^(\s+auth: \[)\]/m, '$1bearer]');
if (/^AUTH_MODE = /m.test(read('wrangler.toml'))) fail('turn bearer on', 'wrangler.toml sets AUTH_MODE');
const authTests = pasteDocFiles('testing.md', 'Test a Worker with auth on');
const bearerTests = [...tests, ...authTests.filter((file) => file.path !== 'test/spec.test.ts')];
await round('bearer on', bearerTests);

// With bearer on, what a client copies names the header: server.json and the page.
await steps.run('npm run registry (bearer on)', 'npm', ['run', 'registry', '--', '--url', FORK_URL], {
  cwd: fork,
  limitMs: LIMITS_MS.check,
});
const declared_ = JSON.parse(read('server.json')).remotes?.[0]?.headers ?? [];
if (!declared_.some((header) => header.name === 'Authorization' && header.isSecret))
  fail(
    'npm run registry (bearer on)',
    `server.json declares no secret Authorization header: ${JSON.stringify(declared_)}`,
  );
await steps.time('the page (bearer on)', async () => {
  const { worker, settings } = await loadWorker(join(fork, 'wrangler.toml'));
  const env = { ...settings.vars, MCP_STATE_SECRET: 'fork check', MCP_BEARER_TOKEN: 'fork check token' };
  const page = await (
    await worker.fetch(new Request('http://localhost/', { headers: { Accept: 'text/html' } }), env, noContext)
  ).text();
  if (!page.includes('Authorization: Bearer &lt;token&gt;') || page.includes('fork check token'))
    throw new Error(
      'the page at / does not show the Authorization header in its connect snippets (or shows the token)',
    );
});

// 5. Round three: sign-in on, as docs/sign-in.md says (GitHub): signIn() in `auth` of src/index.ts,
// the sign-in block of wrangler.toml uncommented, LOGIN_PROVIDER, AUTH_RESOURCE and LOGIN_CLIENT_ID
// set. The fork lists bearer already, so as the README's "Authorization" says of several modes,
// AUTH_MODE chooses: "signin" (its bearer tests, which set AUTH_MODE themselves, still pass).
docSays('sign-in.md', ['auth: [signIn()]', 'LOGIN_PROVIDER = "github"', 'LOGIN_CLIENT_ID', 'AUTH_RESOURCE']);
if (!authorization.includes('list several and `AUTH_MODE`'))
  fail('follow the README', 'its "Authorization" step no longer says AUTH_MODE chooses among several modes');
addImport(fork, 'src/index.ts', "import { signIn } from 'mcp-worker-framework/signin';", fail);
edit(
  'src/index.ts',
  /^(\s+auth: \[)([^\]]*)\]/m,
  (_, start, listed) => `${start}${listed ? `${listed}, ` : ''}signIn()]`,
);
uncommentBlock('[[kv_namespaces]]');
setVar('AUTH_MODE', 'signin');
setVar('LOGIN_PROVIDER', 'github');
setVar('AUTH_RESOURCE', FORK_URL);
setVar('LOGIN_CLIENT_ID', 'my-github-oauth-app');
await round('sign-in on', bearerTests);

// 6. Round four: tasks on too, as docs/tasks.md says: tasks() in `extensions` of src/index.ts,
// its Durable Object class exported as McpTask, the tasks block of wrangler.toml uncommented;
// the README's tool takes part with task: 'optional'.
docSays('tasks.md', ['tasks()', 'McpTask', "task: 'optional'", 'MCP_TASKS']);
addImport(fork, 'src/index.ts', "import { tasks } from 'mcp-worker-framework/tasks';", fail);
edit('src/index.ts', /^(\s+extensions: \[[^\]]*)\]/m, '$1, tasks()]');
if (!/^export class McpTask /m.test(read('src/index.ts')))
  edit('src/index.ts', /^(export default )/m, 'export class McpTask extends worker.McpTask {}\n\n$1');
uncommentBlock('[[durable_objects.bindings]]\n# name = "MCP_TASKS"');
edit(tool.path, /^(\s+)(inputSchema: )/m, "$1task: 'optional',\n$1$2");
await round('sign-in and tasks on', bearerTests);

// 7. Round five: notifications on, as docs/notifications.md says: notifications() in `extensions`,
// its class exported as McpNotifications, its block of wrangler.toml uncommented (after tasks',
// whose migration came first); the docs' tool that notifies (server-api.md) with a template that
// serves its URIs, and the docs' tests of it.
docSays('notifications.md', ['notifications()', 'McpNotifications', 'MCP_NOTIFICATIONS']);
addImport(fork, 'src/index.ts', "import { notifications } from 'mcp-worker-framework/notifications';", fail);
edit('src/index.ts', /^(\s+extensions: \[[^\]]*)\]/m, '$1, notifications()]');
edit('src/index.ts', /^(export default )/m, 'export class McpNotifications extends worker.McpNotifications {}\n\n$1');
uncommentBlock('[[durable_objects.bindings]]\n# name = "MCP_NOTIFICATIONS"');
// As the block's comment says: tasks' migration came first, so this one takes the next number.
edit('wrangler.toml', /(new_sqlite_classes = \["McpTask"\][\s\S]*?)^tag = "v1"$/m, '$1tag = "v2"');
const [notifying] = markdownFiles(join(pkg, 'docs', 'server-api.md'), 'Subscriptions: `subscriptions/listen`', fail);
if (!notifying?.path.startsWith('src/tools/'))
  fail('follow docs/server-api.md', 'its tool that notifies names no file of src/tools/');
mkdirSync(dirname(join(fork, notifying.path)), { recursive: true });
writeFileSync(join(fork, notifying.path), notifying.code);
const notifyingName = /export const (\w+)/.exec(notifying.code)?.[1];
addImport(
  fork,
  'src/server.ts',
  `import { ${notifyingName} } from './tools/${notifying.path.slice('src/tools/'.length, -3)}';`,
  fail,
);
edit('src/server.ts', /^(\s+tools: \[[^\]]*)\]/m, `$1, ${notifyingName}]`);
writeFileSync(
  join(fork, 'src/resources/docs.ts'),
  "import { defineResourceTemplate } from 'mcp-worker-framework';\n\n" +
    "export const doc = defineResourceTemplate({\n  uriTemplate: 'docs://{id}',\n  name: 'doc',\n  mimeType: 'text/plain',\n" +
    "  read: (uri, { id }) => ({ contents: [{ uri, mimeType: 'text/plain', text: `document ${id}` }] }),\n});\n",
);
addImport(fork, 'src/server.ts', "import { doc } from './resources/docs';", fail);
edit('src/server.ts', /^(\s+)resourceTemplates: \[\],/m, '$1resourceTemplates: [doc],');
const notificationTests = pasteDocFiles('notifications.md', 'Test a tool that notifies');
const notifiedTests = [...bearerTests, ...notificationTests];
await round('notifications on too', notifiedTests);

// 8. Round six: events on too, as docs/events.md says: its event type in a file of its own,
// events({ types }) in `extensions` of src/index.ts, its class exported as McpEvents, the events
// block of wrangler.toml uncommented, its migration the third (authorization is on already: sign-in).
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
// As the block's comment says: tasks' and notifications' migrations came first, so this one is v3.
edit('wrangler.toml', /(new_sqlite_classes = \["McpNotifications"\][\s\S]*?)^tag = "v1"$/m, '$1tag = "v3"');
await round('events on too', notifiedTests);

// 9. The fork moves to the package as npm packs it, by the README's one command, with its own
// install (no longer the repository's node_modules): no install-script warning, green again.
const packed = join(parent, 'packed');
mkdirSync(packed);
const packOutput = await steps.run('npm pack', 'npm', ['pack', '--pack-destination', packed], {
  cwd: pkg,
  limitMs: LIMITS_MS.check,
});
const tarball = join(packed, packOutput.trim().split('\n').at(-1).trim());
rmSync(join(fork, 'node_modules'));
rmSync(join(fork, 'package-lock.json'), { force: true }); // the workspace's: the fork's own is made anew
const moved = await steps.run(
  'npx mcp-worker use-published (the packed package)',
  process.execPath,
  [
    join(fork, 'packages', 'mcp-worker-framework', 'cli', 'mcp-worker.mjs'),
    'use-published',
    `file:${tarball}`,
    '--',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
  ],
  { cwd: fork, limitMs: LIMITS_MS.install },
);
if (/install-scripts/.test(moved))
  fail('npm install (the packed package)', 'npm warned of install scripts not covered by allowScripts');
if (existsSync(join(fork, 'packages'))) fail('use-published', 'packages/ is still there');
await steps.run(
  'the package in Node, as ESM',
  process.execPath,
  ['-e', "import('mcp-worker-framework/testing').catch((error) => { console.error(error); process.exit(1); })"],
  {
    cwd: fork,
    limitMs: LIMITS_MS.check,
  },
);
await round('on the packed package', notifiedTests);

if (!process.env.FORK_CHECK_KEEP) rmSync(parent, { recursive: true, force: true });
console.log(`\nfork test times:\n  ${testTimes.join('\n  ')}`);
steps.done(
  "a fork made by following the README is green with nothing served, then with the README's tool, tests and view and its own README, with bearer on, with sign-in, with tasks, with notifications, with events, and on the packed package",
);
