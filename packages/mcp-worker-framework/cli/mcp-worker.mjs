#!/usr/bin/env node
/**
 * `mcp-worker <command>`: the framework's steps a fork runs from its package.json and
 * wrangler.toml, on the project in the current directory.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const COMMANDS = {
  build: {
    about: 'builds views/ and skills/ into build/ (wrangler.toml [build] runs it)',
    scripts: ['build-views.mjs', 'build-skills.mjs'],
  },
  check: {
    about: "checks the built Worker's answers against the spec's schema, and its config as deployed",
    scripts: ['check-worker.mjs'],
  },
  'check-types': {
    about: 'checks that worker-configuration.d.ts is what npm run cf-typegen makes',
    scripts: ['check-types.mjs'],
  },
  registry: { about: 'writes or checks server.json for the MCP Registry', scripts: ['registry.mjs'] },
  deploy: { about: 'deploys with wrangler and says what to do next', scripts: ['deploy.mjs'] },
  smoke: { about: 'calls a deployed Worker as a client would', scripts: ['smoke.mjs'] },
  'use-published': {
    about: 'moves from the workspace copy of the framework to the published package',
    scripts: ['use-published.mjs'],
  },
};

const [command, ...args] = process.argv.slice(2);
const chosen = COMMANDS[command];
if (!chosen) {
  const list = Object.entries(COMMANDS).map(([name, { about }]) => `  ${name.padEnd(15)}${about}`);
  const asked = command === undefined || command === '--help';
  // Asked for, the usage is the answer (stdout); after an unknown command, an error.
  (asked ? console.log : console.error)(`usage: mcp-worker <command> [options]\n\n${list.join('\n')}`);
  process.exit(asked ? 0 : 2);
}
for (const script of chosen.scripts) {
  const path = fileURLToPath(new URL(`../scripts/${script}`, import.meta.url));
  const run = spawnSync(process.execPath, ['--enable-source-maps', path, ...args], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
