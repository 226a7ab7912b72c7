/**
 * `npm run test:packed`: proves the framework works as a fork outside this repository gets it,
 * and that taking a newer version is one line.
 *
 * 1. `npm pack` this package (its `prepare` builds dist/) into a temporary folder.
 * 2. A copy of what a clone of the template has (the workspace copy in packages/ included) moves to
 *    the tarball by the README's one command, `mcp-worker use-published file:<tarball>`, which
 *    installs it (from the npm cache first: no network when the repository's own install filled
 *    it) with no install-script warning (`allowScripts`); the package loads in Node as ESM; its
 *    `npm run check` and `npm test` pass.
 * 3. The upgrade: the package as a newer version (its version → the next patch, a CHANGELOG entry),
 *    packed; the copy, made a fork with a tool of its own (README, "Make it yours", "Add a tool",
 *    "Test your tool"), changes one line of package.json (the dependency), reinstalls, and its
 *    `npm run check` and `npm test` pass again on the new version.
 *
 * PACKED_CHECK_KEEP=1 keeps the copies for a post-mortem (always kept on failure).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addReadmeTests, addReadmeTool, copyClone, makeItYours } from './forkCopy.mjs';
import { stepRunner } from './steps.mjs';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const root = join(pkg, '..', '..');
const { name, version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
const next = version.replace(/\d+$/, (patch) => String(Number(patch) + 1));
const LIMITS_MS = { pack: 3 * 60_000, install: 10 * 60_000, check: 5 * 60_000, test: 10 * 60_000 };
const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];

const dir = mkdtempSync(join(tmpdir(), 'mcp-packed-'));
const template = join(dir, 'template');
const steps = stepRunner('packed check', { keep: dir });

/** The tarball's file name, as npm pack prints it last. */
const tarball = (output) => output.trim().split('\n').at(-1).trim();

/** The copy's dependency on the package, pointed at a tarball: the one line an upgrade changes. */
const dependOn = (file) => {
  const path = join(template, 'package.json');
  const text = readFileSync(path, 'utf8');
  const line = new RegExp(`^(\\s*"${name}": )"[^"]*"`, 'm');
  if (!line.test(text)) steps.fail('depend on the tarball', `package.json has no "${name}" dependency`);
  writeFileSync(path, text.replace(line, `$1"file:${join(dir, file)}"`));
};

const installed = () => JSON.parse(readFileSync(join(template, 'node_modules', name, 'package.json'), 'utf8')).version;

async function checkAndTest(when) {
  await steps.run(`npm run check (${when})`, 'npm', ['run', 'check'], { cwd: template, limitMs: LIMITS_MS.check });
  await steps.run(`npm test (${when})`, 'npm', ['test'], { cwd: template, limitMs: LIMITS_MS.test });
}

// 1. The package as npm publishes it.
const first = tarball(
  await steps.run(`npm pack ${name}@${version}`, 'npm', ['pack', '--pack-destination', dir], {
    cwd: pkg,
    limitMs: LIMITS_MS.pack,
  }),
);

// 2. The template leaves its workspace copy for the tarball, by the README's one command.
await steps.time('copy the template', () => copyClone(root, template));
const moved = await steps.run(
  `mcp-worker use-published ${name}@${version}`,
  process.execPath,
  [
    join(template, 'packages', name, 'cli', 'mcp-worker.mjs'),
    'use-published',
    `file:${join(dir, first)}`,
    '--',
    ...INSTALL.slice(1),
  ],
  { cwd: template, limitMs: LIMITS_MS.install },
);
if (/install-scripts/.test(moved))
  steps.fail('npm install', "npm warned of install scripts not covered by the template's allowScripts");
if (installed() !== version) steps.fail('npm install', `node_modules has ${name} ${installed()}, not ${version}`);
await steps.run(
  'the package in Node, as ESM',
  process.execPath,
  ['-e', `import('${name}/testing').catch((error) => { console.error(error); process.exit(1); })`],
  {
    cwd: template,
    limitMs: LIMITS_MS.check,
  },
);
await checkAndTest(`the template on ${version}`);

// 3. A newer version: the same package, its version bumped and the change written in its changelog.
const newer = join(dir, 'newer');
await steps.time(`make ${name}@${next}`, () => {
  mkdirSync(newer);
  cpSync(join(template, 'node_modules', name), newer, { recursive: true, dereference: true });
  const manifest = JSON.parse(readFileSync(join(newer, 'package.json'), 'utf8'));
  writeFileSync(join(newer, 'package.json'), `${JSON.stringify({ ...manifest, version: next }, null, 2)}\n`);
  const changelog = join(newer, 'CHANGELOG.md');
  let log = '# Changelog\n';
  try {
    log = readFileSync(changelog, 'utf8');
  } catch {}
  const entry = `## ${next}\n\nThe packed check's upgrade: no change a fork must make.\n\n`;
  const at = log.search(/^## /m);
  writeFileSync(changelog, at < 0 ? `${log.trimEnd()}\n\n${entry}` : log.slice(0, at) + entry + log.slice(at));
});
// dist/ is in the copy already: pack it as it is (no prepare, which would need the sources).
const second = tarball(
  await steps.run(`npm pack ${name}@${next}`, 'npm', ['pack', '--ignore-scripts', '--pack-destination', dir], {
    cwd: newer,
    limitMs: LIMITS_MS.pack,
  }),
);

// The copy becomes a fork with a tool of its own, then takes the newer version: one line.
await steps.time('make it a fork with its own tool', () => {
  makeItYours(template, { name: 'my-packed-fork', cardName: 'io.github.my-fork-org/my-packed-fork' });
  addReadmeTool(root, template);
  addReadmeTests(root, template);
});
// Its vars changed (the example's upstream gone): their types regenerated, as the README says.
await steps.run('npm run cf-typegen (the fork)', 'npm', ['run', 'cf-typegen'], {
  cwd: template,
  limitMs: LIMITS_MS.check,
});
const before = readFileSync(join(template, 'package.json'), 'utf8');
dependOn(second);
const changed = readFileSync(join(template, 'package.json'), 'utf8')
  .split('\n')
  .filter((line, i) => line !== before.split('\n')[i]);
if (changed.length !== 1) steps.fail('upgrade', `package.json changed in ${changed.length} lines, not one`);
await steps.run(`npm install (${next})`, 'npm', INSTALL, { cwd: template, limitMs: LIMITS_MS.install });
if (installed() !== next) steps.fail('upgrade', `node_modules has ${name} ${installed()}, not ${next}`);
await checkAndTest(`a fork with its own tool, upgraded to ${next}`);

if (!process.env.PACKED_CHECK_KEEP) rmSync(dir, { recursive: true, force: true });
steps.done(
  `${name}@${version} packed and installed into the template is green; a fork with its own tool took ${next} by one line and is green`,
);
