/**
 * `npx mcp-worker use-published [version]`: a fork moves from the workspace copy of the framework
 * (packages/mcp-worker-framework, as the template ships) to the published package, in one
 * command (README, "Upgrade"): the dependency on `mcp-worker-framework` set to `version` (default:
 * `^` the workspace copy's version), `packages/*` taken out of `workspaces`, the copy deleted, then
 * `npm install`. Options after `--` go to `npm install`. Its docs are then in
 * node_modules/mcp-worker-framework/docs/.
 *
 *   npx mcp-worker use-published              # ^<the version the copy is>
 *   npx mcp-worker use-published 1.2.0        # or any version or spec npm takes (a tarball: file:…)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NAME = 'mcp-worker-framework';
const COPY = join('packages', NAME);

function fail(why) {
  console.error(`use-published: ${why}`);
  process.exit(1);
}

const dashes = process.argv.indexOf('--');
const [version, ...rest] = process.argv.slice(2, dashes < 0 ? undefined : dashes);
const installOptions = dashes < 0 ? [] : process.argv.slice(dashes + 1);
if (rest.length > 0) fail(`one version at most (given: ${[version, ...rest].join(' ')})`);

if (!existsSync('package.json')) fail('run it at the root of your project, beside package.json');
const text = readFileSync('package.json', 'utf8');
const manifest = JSON.parse(text);
if (manifest.dependencies?.[NAME] === undefined) fail(`package.json has no dependency on ${NAME}`);
if (!existsSync(join(COPY, 'package.json'))) fail(`there is no workspace copy to leave (${COPY}/): nothing to do`);
const copy = JSON.parse(readFileSync(join(COPY, 'package.json'), 'utf8'));
if (copy.name !== NAME) fail(`${COPY}/package.json is ${copy.name}, not ${NAME}: left as it is`);

const taken = version ?? `^${copy.version}`;
manifest.dependencies[NAME] = taken;
// The workspaces the template declares for the copy; any other of the fork's own stays.
const workspaces = (manifest.workspaces ?? []).filter((glob) => glob !== 'packages/*' && glob !== COPY);
if (workspaces.length > 0) manifest.workspaces = workspaces;
else delete manifest.workspaces;
writeFileSync('package.json', `${JSON.stringify(manifest, null, /^( +)"/m.exec(text)?.[1].length ?? 2)}\n`);
rmSync(COPY, { recursive: true, force: true });
if (existsSync('packages') && readdirSync('packages').length === 0) rmSync('packages', { recursive: true });
console.log(`use-published: ${NAME} is now "${taken}" in package.json; ${COPY}/ deleted. npm install:`);

const install = spawnSync('npm', ['install', ...installOptions], {
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (install.status !== 0) fail(`npm install failed (exit ${install.status}): package.json already says "${taken}"`);
console.log(
  `use-published: done. Then npm run check and npm test; the framework's docs are in node_modules/${NAME}/docs/.`,
);
