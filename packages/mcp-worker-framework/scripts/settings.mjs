/**
 * The settings of the Worker, outside it: the core's (src/http/settings/settingsTable.ts) and those of
 * every auth mode the package ships (each module of src/auth/, and src/signin/signIn.ts), against
 * the template around this package (the repository's wrangler*.toml), written into this package's
 * README (a fork writes its own README, which no check reads):
 *
 *   npm run settings            writes the README's settings table from it
 *   npm run settings -- --check (part of `npm run check`) fails, naming what to fix, when
 *                               - a `[vars]` value of the template's wrangler*.toml cannot be read
 *                                 (the Worker would refuse to serve it), with the secrets assumed set;
 *                               - a `[[ratelimits]]` period differs from RATE_LIMIT_PERIOD_SECONDS
 *                                 (the Retry-After the Worker sends);
 *                               - the README's table is not the one the table makes.
 *
 * esbuild bundles those modules for Node, so this runs the Worker's own parsers: one truth for both.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { unstable_readConfig as readConfig } from 'wrangler';

/** This package, whose README holds the table, and the template around it (the repository's root). */
const root = new URL('..', import.meta.url).pathname;
const template = new URL('../../../', import.meta.url).pathname;
const README = `${root}README.md`;
const START =
  '<!-- The settings table: made by `npm run settings` from src/http/settings/settingsTable.ts and the auth modes; edit it there. -->';

/** The modules of the shipped modes: src/auth/<mode>.ts, and sign-in's. */
const MODE_MODULES = [
  ...readdirSync(`${root}src/auth`)
    .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    .map((file) => `./src/auth/${file}`),
  './src/signin/signIn.ts',
];

/** The core's table and docs, the settings reader, and each mode module, bundled for Node (the runtime's module stubbed). */
async function load() {
  const contents = [
    "export { SETTINGS, SettingError, RATE_LIMIT_PERIOD_SECONDS } from './src/http/settings/settingsTable.ts';",
    "export { SETTING_DOCS } from './src/http/settings/settingsDocs.ts';",
    "export { readSettings } from './src/http/settings/settings.ts';",
    // An extension's own rows (MCP Events'), beside the modes'.
    "export * as events from './src/events/eventsSettings.ts';",
    `export const modules = [${MODE_MODULES.map((file) => `import(${JSON.stringify(file)})`).join(', ')}];`,
  ].join('\n');
  const stub = {
    name: 'workers-runtime',
    setup: (b) => b.onResolve({ filter: /^cloudflare:workers$/ }, () => ({ path: 'stub', namespace: 'stub' })),
  };
  const stubbed = {
    name: 'workers-runtime-module',
    setup: (b) =>
      b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
        contents: 'export class DurableObject {} export class WorkerEntrypoint {}',
      })),
  };
  const { outputFiles } = await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    plugins: [stub, stubbed],
    logLevel: 'error',
  });
  const dir = mkdtempSync(join(tmpdir(), 'mcp-settings-'));
  try {
    writeFileSync(join(dir, 'settings.mjs'), outputFiles[0].text);
    // The runtime's flags, as the template's wrangler.toml sets them (workers-oauth-provider warns
    // at load when global_fetch_strictly_public is off): no warning that is not true of the Worker.
    const { compatibility_flags: flags = [] } = readConfig(
      { config: `${template}wrangler.toml` },
      { hideWarnings: true },
    );
    globalThis.Cloudflare = { compatibilityFlags: Object.fromEntries(flags.map((flag) => [flag, true])) };
    const loaded = await import(pathToFileURL(join(dir, 'settings.mjs')).href);
    const modules = await Promise.all(loaded.modules);
    // A module's mode: an exported AuthMode, or its factory (signIn()); a verifier's module beside
    // the modes in src/auth exports none.
    const madeBy = (factory) => {
      try {
        return factory.length === 0 ? factory() : undefined;
      } catch {
        return undefined;
      }
    };
    const modes = modules
      .map((module) => {
        const value = Object.values(module).find((one) =>
          typeof one === 'function' ? madeBy(one)?.settings : one?.settings && one?.name,
        );
        return typeof value === 'function' ? value() : value;
      })
      .filter(Boolean);
    const docs = Object.assign({}, loaded.SETTING_DOCS, loaded.events.docs, ...modules.map((module) => module.docs));
    return { ...loaded, modes, docs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const {
  SETTINGS,
  SettingError,
  RATE_LIMIT_PERIOD_SECONDS,
  readSettings,
  modes,
  events,
  docs: SETTING_DOCS,
} = await load();
/** Every row: the core's, the extensions', then each shipped mode's (a shared row once). */
const ROWS = Object.assign({}, SETTINGS, events.settings, ...modes.map((mode) => mode.settings));
/** AUTH_MODE, as the README says it: `none`, or the name of a shipped mode its entry lists. */
const accepts = (name, setting) =>
  name === 'AUTH_MODE'
    ? `${['none', ...modes.map((mode) => mode.name)].map(code).join(', ')} (a mode only when \`auth\` in \`src/index.ts\` lists it; unset, the one it lists)`
    : setting.accepts;
const END = '<!-- End of the settings table. -->';

const code = (value) => `\`${value}\``;
const shown = (setting, doc) =>
  doc.shownDefault ??
  (Array.isArray(setting.default)
    ? setting.default.length
      ? code(setting.default.join(', '))
      : 'empty'
    : setting.default === undefined
      ? 'unset'
      : code(setting.default));

/** The README's table, one row per setting. */
export function settingsTable() {
  const rows = Object.entries(ROWS).map(
    ([name, setting]) =>
      `| ${code(name)}${setting.secret ? ' (secret)' : ''} | ${shown(setting, SETTING_DOCS[name])} | ${SETTING_DOCS[name].doc} Accepts ${accepts(name, setting)}. |`,
  );
  return [START, '| Setting | Default | What it does |', '|---|---|---|', ...rows, END].join('\n');
}

function readmeWithTable(readme) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`README.md has no settings table between "${START}" and "${END}"`);
  return `${readme.slice(0, start)}${settingsTable()}${readme.slice(end + END.length)}`;
}

/** What is wrong with one wrangler*.toml, as sentences. */
function problemsOf(file) {
  const config = readConfig({ config: `${template}${file}` }, { hideWarnings: true });
  const secrets = Object.fromEntries(
    Object.entries(ROWS)
      .filter(([, s]) => s.secret)
      .map(([name]) => [name, 'set-with-wrangler-secret-put']),
  );
  const problems = [];
  for (const name of Object.keys(ROWS)) {
    if (ROWS[name].secret && name in (config.vars ?? {}))
      problems.push(`${name} is a secret: set it with \`wrangler secret put ${name}\`, not in [vars]`);
  }
  // Read as a Worker that includes every shipped mode reads them, AUTH_MODE "none" unless set (a Worker
  // with several modes must choose; one that lists fewer refuses a mode it lacks: `mcp-worker check`).
  const settings = readSettings({ AUTH_MODE: 'none', ...secrets, ...config.vars }, modes);
  if (settings instanceof SettingError) problems.push(`the Worker would refuse to serve: ${settings.message}`);
  for (const limiter of config.ratelimits ?? []) {
    const period = limiter.simple?.period;
    if (period !== RATE_LIMIT_PERIOD_SECONDS) {
      problems.push(
        `[[ratelimits]] ${limiter.name} has period = ${period}, but the Worker answers Retry-After: ${RATE_LIMIT_PERIOD_SECONDS} (RATE_LIMIT_PERIOD_SECONDS in src/http/settings/settingsTable.ts): make them equal`,
      );
    }
  }
  return problems.map((problem) => `${file}: ${problem}`);
}

const readme = readFileSync(README, 'utf8');
if (process.argv.includes('--check')) {
  const configs = readdirSync(template).filter((file) => /^wrangler(\..+)?\.toml$/.test(file));
  const problems = configs.flatMap(problemsOf);
  if (readmeWithTable(readme) !== readme)
    problems.push('README.md: the settings table is stale; run `npm run settings`');
  if (problems.length > 0) {
    console.error(
      `settings: ${problems.length} problem${problems.length > 1 ? 's' : ''}\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`settings: ${configs.join(', ')} can be read; README's table is current`);
} else {
  writeFileSync(README, readmeWithTable(readme));
  console.log('settings: README.md table written');
}
