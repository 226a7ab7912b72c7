/**
 * `mcp-worker check-types`: is worker-configuration.d.ts (the `Env` type of the project in the
 * current directory) what `npm run cf-typegen` makes of wrangler.toml now? `wrangler types
 * --check` with the project's own cf-typegen options, and a message that names the script to run:
 * plain `wrangler types`, which wrangler's own message suggests, writes the whole runtime's
 * types (16,000 lines that clash with @cloudflare/workers-types) instead of the project's bindings.
 *
 *   mcp-worker check-types     (part of `npm run check`)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The options of the template's cf-typegen, for a project whose package.json has none. */
const TEMPLATE = 'wrangler types --include-runtime=false --strict-vars=false --env-file=.dev.vars.example';

const script = JSON.parse(readFileSync('package.json', 'utf8')).scripts?.['cf-typegen'] ?? TEMPLATE;
const [command, subcommand, ...options] = script.trim().split(/\s+/);
if (command !== 'wrangler' || subcommand !== 'types') {
  console.error(
    `check-types: the cf-typegen script of package.json is "${script}"; it should run wrangler types (${TEMPLATE})`,
  );
  process.exit(1);
}
const wrangler = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const run = spawnSync(process.execPath, [wrangler, 'types', ...options, '--check'], { encoding: 'utf8' });
if (run.status === 0) {
  console.log('check-types: worker-configuration.d.ts matches wrangler.toml');
  process.exit(0);
}
const said = `${run.stdout}${run.stderr}`;
if (/out of date|does not exist|not found/i.test(said)) {
  console.error(
    'check-types: worker-configuration.d.ts does not match wrangler.toml (or .dev.vars.example): run `npm run cf-typegen` and commit what it writes',
  );
} else {
  console.error(`check-types: wrangler types --check failed:\n${said}`);
}
process.exit(1);
