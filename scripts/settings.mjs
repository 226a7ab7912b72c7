/**
 * The settings table of src/http/settingsTable.ts, outside the Worker:
 *
 *   npm run settings            writes the README's settings table from it
 *   npm run settings -- --check (part of `npm run check`) fails, naming what to fix, when
 *                               - a `[vars]` value of a wrangler*.toml cannot be read (the Worker
 *                                 would refuse to serve it), with the secrets assumed set;
 *                               - a `[[ratelimits]]` period differs from RATE_LIMIT_PERIOD_SECONDS
 *                                 (the Retry-After the Worker sends);
 *                               - the README's table is not the one the table makes.
 *
 * Node strips the table's types and runs the Worker's own parsers: one truth for both.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { unstable_readConfig as readConfig } from 'wrangler';
import { SETTING_DOCS } from '../src/http/settingsDocs.ts';
import { loginSettings, parseSettingValues, RATE_LIMIT_PERIOD_SECONDS, SETTINGS, SettingError } from '../src/http/settingsTable.ts';

const root = new URL('..', import.meta.url).pathname;
const README = `${root}README.md`;
const START = '<!-- The settings table: made by `npm run settings` from src/http/settingsTable.ts; edit it there. -->';
const END = '<!-- End of the settings table. -->';

const code = (value) => `\`${value}\``;
const shown = (setting, doc) =>
  doc.shownDefault ?? (Array.isArray(setting.default) ? (setting.default.length ? code(setting.default.join(', ')) : 'empty') : setting.default === undefined ? 'unset' : code(setting.default));

/** The README's table, one row per setting. */
export function settingsTable() {
  const rows = Object.entries(SETTINGS).map(
    ([name, setting]) => `| ${code(name)}${setting.secret ? ' (secret)' : ''} | ${shown(setting, SETTING_DOCS[name])} | ${SETTING_DOCS[name].doc} Accepts ${setting.accepts}. |`,
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
  const config = readConfig({ config: `${root}${file}` }, { hideWarnings: true });
  const secrets = Object.fromEntries(Object.entries(SETTINGS).filter(([, s]) => s.secret).map(([name]) => [name, 'set-with-wrangler-secret-put']));
  const problems = [];
  for (const name of Object.keys(SETTINGS)) {
    if (SETTINGS[name].secret && name in (config.vars ?? {})) problems.push(`${name} is a secret: set it with \`wrangler secret put ${name}\`, not in [vars]`);
  }
  const values = parseSettingValues({ ...secrets, ...config.vars });
  if (values instanceof SettingError) problems.push(`the Worker would refuse to serve: ${values.message}`);
  // The sign-in mode's own settings, which its entry checks (src/signin): the same refusal.
  const login = values instanceof SettingError || values.AUTH_MODE !== 'signin' ? undefined : loginSettings(values);
  if (login instanceof SettingError) problems.push(`the Worker would refuse to serve: ${login.message}`);
  for (const limiter of config.ratelimits ?? []) {
    const period = limiter.simple?.period;
    if (period !== RATE_LIMIT_PERIOD_SECONDS) {
      problems.push(`[[ratelimits]] ${limiter.name} has period = ${period}, but the Worker answers Retry-After: ${RATE_LIMIT_PERIOD_SECONDS} (RATE_LIMIT_PERIOD_SECONDS in src/http/settingsTable.ts): make them equal`);
    }
  }
  return problems.map((problem) => `${file}: ${problem}`);
}

const readme = readFileSync(README, 'utf8');
if (process.argv.includes('--check')) {
  const configs = readdirSync(root).filter((file) => /^wrangler(\..+)?\.toml$/.test(file));
  const problems = configs.flatMap(problemsOf);
  if (readmeWithTable(readme) !== readme) problems.push('README.md: the settings table is stale; run `npm run settings`');
  if (problems.length > 0) {
    console.error(`settings: ${problems.length} problem${problems.length > 1 ? 's' : ''}\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`settings: ${configs.join(', ')} can be read; README's table is current`);
} else {
  writeFileSync(README, readmeWithTable(readme));
  console.log('settings: README.md table written');
}
