/**
 * `npm run registry`: writes `server.json` for the official MCP Registry (docs/discovery.md, "The
 * MCP Registry"). Its name, title, description, version, website, repository and icons are the
 * Server Card's, asked of the Worker itself (built from wrangler.toml as `wrangler deploy` builds
 * it, and loaded once in Node), so server.json, the card and `server/discover` never disagree.
 * The remote is the deployed endpoint: `--url`, else PUBLIC_URL in `[vars]`, with the headers a
 * client must send there (bearer's `Authorization`), as the Worker's page says them. The result is
 * validated against the registry's schema, vendored in scripts/registry/; nothing is fetched.
 *
 *   npm run registry -- --url https://<name>.<account>.workers.dev/mcp   writes ./server.json
 *   npm run registry -- --check        validates only (part of `npm run check`); without a URL,
 *                                      with a placeholder one
 *   --config test/wrangler.toml  another Worker;  --out path/server.json  another file
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_readConfig as readConfig } from 'wrangler';
import { endpointUrl, Invalid } from '../dist/http/settings/settingsTable.js';
import { anonymousEnv, loadWorker, noContext } from './loadWorker.mjs';
import { problemsOf, serverJsonOf } from './registry/serverJson.mjs';

function fail(why) {
  console.error(`registry: ${why}`);
  process.exit(1);
}

let options;
try {
  options = parseArgs({
    options: {
      url: { type: 'string' },
      config: { type: 'string', default: 'wrangler.toml' },
      out: { type: 'string', default: 'server.json' },
      check: { type: 'boolean', default: false },
    },
  }).values;
} catch (error) {
  fail(
    `${error.message}\n  usage: npm run registry -- [--url https://<name>.<account>.workers.dev/mcp] [--config wrangler.toml] [--out server.json] [--check]`,
  );
}

let config;
try {
  config = readConfig({ config: resolve(options.config) }, { hideWarnings: true });
} catch (error) {
  fail(`cannot read ${options.config}: ${error?.message ?? error}`);
}
const placeholder = `https://${config.name}.<account>.workers.dev/mcp`;

/** The endpoint URL to publish: --url, else PUBLIC_URL, else (for --check only) a placeholder. */
function endpoint() {
  const [given, from] =
    options.url !== undefined
      ? [options.url, '--url']
      : [config.vars?.PUBLIC_URL || undefined, `PUBLIC_URL in ${options.config}`];
  if (given === undefined) {
    if (options.check) return `https://${config.name}.example.workers.dev/mcp`;
    fail(
      `which URL is the server at? Pass --url (npm run registry -- --url ${placeholder}) or set PUBLIC_URL in [vars] of ${options.config}`,
    );
  }
  const url = endpointUrl(given);
  if (url instanceof Invalid || url === undefined) {
    fail(
      `${from} must be an https URL (http only on loopback) whose path is /mcp, e.g. ${placeholder}${url?.why ? `: ${url.why}` : ''} (it is "${given.slice(0, 200)}")`,
    );
  }
  return url;
}

/** The secrets a deployment sets (`wrangler secret put`), which no config holds: the names the config's `.dev.vars.example` lists, set or commented. */
function secretNames() {
  try {
    return new Set(
      [
        ...readFileSync(resolve(dirname(resolve(options.config)), '.dev.vars.example'), 'utf8').matchAll(
          /^#?\s*([A-Z][A-Z0-9_]*)=/gm,
        ),
      ].map(([, name]) => name),
    );
  } catch {
    return new Set();
  }
}

/**
 * The headers a client must send, as the Worker deployed with this config says them on its page
 * (`GET /` as JSON): asked with the config's vars, each secret the Worker asks for given a
 * placeholder (the page reads none). None when the page says none, or is off.
 */
async function headersToSend() {
  const secrets = secretNames();
  let env = { ...config.vars, MCP_STATE_SECRET: 'npm run registry' };
  for (;;) {
    // A secret not yet stood in for is refused, and the Worker logs the refusal: expected here, not shown.
    const logError = console.error;
    console.error = () => {};
    const page = await loaded.worker
      .fetch(new Request('http://localhost/', { headers: { Accept: 'application/json' } }), env, noContext)
      .finally(() => {
        console.error = logError;
      });
    const body = await page.json().catch(() => undefined);
    if (page.status === 200 && typeof body?.mcp === 'string') return body.headers ?? {};
    const setting = body?.error?.data?.setting;
    if (typeof setting === 'string' && secrets.has(setting) && env[setting] === undefined) {
      env = { ...env, [setting]: `<${setting}>` }; // a new env: the settings of one are read once
      continue;
    }
    console.warn(
      `registry: the page at / did not say which headers a client sends (HTTP ${page.status}${body?.error ? `: ${body.error.message}` : ''}); server.json declares none`,
    );
    return {};
  }
}

const url = endpoint();
let loaded;
try {
  loaded = await loadWorker(options.config);
} catch (error) {
  fail(`the Worker of ${options.config} fails to load (npm run check says where): ${error?.message ?? error}`);
}
// The card is public: asked as an anonymous client of the server with authorization off.
const env = anonymousEnv(loaded.settings, 'npm run registry');
const answer = await loaded.worker.fetch(
  new Request('http://localhost/mcp/server-card', { headers: { Accept: 'application/json' } }),
  env,
  noContext,
);
const headers = await headersToSend();
rmSync(loaded.bundle, { recursive: true, force: true }); // a temporary build, read
if (answer.status === 404)
  fail(
    'the server has no Server Card: add `card` (its name in reverse-DNS form and a description) to src/server.ts (docs/discovery.md)',
  );
if (answer.status !== 200)
  fail(`the Worker answered ${answer.status} for its Server Card: ${(await answer.text()).slice(0, 500)}`);

const serverJson = serverJsonOf(await answer.json(), url, headers);
const problems = problemsOf(serverJson);
if (problems.length > 0) {
  fail(
    `server.json would not be accepted by the MCP Registry (schema 2025-12-11):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
  );
}
if (options.check) {
  console.log(
    `registry: ${options.config}: the server.json of ${serverJson.name} is valid against the MCP Registry's schema (2025-12-11)`,
  );
  process.exit(0);
}
const out = resolve(process.cwd(), options.out);
writeFileSync(out, `${JSON.stringify(serverJson, null, 2)}\n`);
console.log(`registry: wrote ${out} for ${serverJson.name} ${serverJson.version} at ${url}

Publish it with the official mcp-publisher CLI (docs/discovery.md, "The MCP Registry"):
  mcp-publisher login github     # a name in io.github.<you>/…; or login dns / login http for your domain
  mcp-publisher publish`);
