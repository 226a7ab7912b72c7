/**
 * `npm run check` loads each Worker a wrangler*.toml deploys (or the configs named on the command
 * line), built as `wrangler deploy` builds it, once in Node, so an author's mistake fails here,
 * before deploy, with the author's own file and line and what to change:
 *
 * - whatever the server throws at load (a name defined twice, an `x-mcp-header` in the wrong
 *   place, a task tool without its runtime), with the stack mapped to the sources;
 * - every schema a client would see (each tool's `inputSchema` and `outputSchema`, as
 *   `tools/list` gives them) checked against its JSON Schema meta-schema (2020-12 unless the
 *   schema says otherwise), so `type: "integr"` or `required: "n"` is caught here, not blamed on
 *   a model's arguments at every call;
 * - every listed tool and prompt (its arguments included) checked against the spec's own schema
 *   of `Tool` and `Prompt` (schema/2026-07-28.json, a copy of the spec's schema.json);
 * - every view of MCP Apps, and every skill's SKILL.md, read from the static assets it was built
 *   into (docs/apps.md, docs/skills.md);
 * - the config itself, read as the deployed Worker reads it (scripts/checkDeployment.mjs): its
 *   settings, wrangler's warnings, and the binding, class and migration of each Durable Object
 *   an extension runs in.
 *
 * Each problem is one line (a block to paste under it); nothing else is printed, no stack trace.
 *
 *   mcp-worker check [wrangler.toml ...]     (in the project's root, a fork's)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { deploymentProblems } from './checkDeployment.mjs';
import { anonymousEnv, loadWorker, noContext } from './loadWorker.mjs';
import { workerFacts } from './workerFacts.mjs';

/** The project checked: the one in the current directory (a fork's root). */
const root = process.cwd();
/** The framework's own code, which no author's mistake is pointed at: its source and its build. */
const framework = ['src', 'dist'].map((folder) => fileURLToPath(new URL(`../${folder}`, import.meta.url)));
const isInside = (dir, path) => {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/** The spec's `Tool` and `Prompt`, as a validator each (2026-07-28 schema.json, copied into the package's schema/). */
const specSchema = JSON.parse(readFileSync(new URL('../schema/2026-07-28.json', import.meta.url), 'utf8'));
const specAjv = new Ajv2020({ strict: false, validateFormats: false });
const specValidator = (name) => specAjv.compile({ $defs: specSchema.$defs, $ref: `#/$defs/${name}` });
const listedAs = { tools: specValidator('Tool'), prompts: specValidator('Prompt') };

const metaValidators = {
  'https://json-schema.org/draft/2020-12/schema': new Ajv2020({ strict: false, validateFormats: false }),
  'https://json-schema.org/draft/2019-09/schema': new Ajv2019({ strict: false, validateFormats: false }),
  'http://json-schema.org/draft-07/schema': new Ajv({ strict: false, validateFormats: false }),
};

/** Why `schema` breaks its dialect's meta-schema, one line per place, or [] when it does not. */
function metaSchemaErrors(schema) {
  const dialect =
    typeof schema?.$schema === 'string'
      ? schema.$schema.replace(/#$/, '')
      : 'https://json-schema.org/draft/2020-12/schema';
  const ajv = metaValidators[dialect];
  if (!ajv || ajv.validateSchema(schema)) return [];
  const byPlace = new Map();
  for (const error of ajv.errors ?? []) {
    const place = error.instancePath || '/';
    byPlace.set(place, [
      ...(byPlace.get(place) ?? []),
      `${error.message}${error.params?.allowedValues ? ` (${error.params.allowedValues.join(', ')})` : ''}`,
    ]);
  }
  // The deepest places are the ones to fix: "must match a schema in anyOf" at a parent only repeats them.
  const places = [...byPlace.keys()];
  return places
    .filter((place) => !places.some((other) => other !== place && other.startsWith(`${place === '/' ? '' : place}/`)))
    .map((place) => `at ${place}: ${[...new Set(byPlace.get(place))].join('; ')}`);
}

/** The author's files in the bundle (not the framework's, not packages'), for pointing at a definition. */
function authorFiles(bundle) {
  const map = JSON.parse(
    readFileSync(
      join(
        bundle,
        readdirSync(bundle).find((file) => file.endsWith('.js.map')),
      ),
      'utf8',
    ),
  );
  return map.sources
    .map((source) => resolve(bundle, source))
    .filter((file) => !file.split('/').includes('node_modules') && !framework.some((dir) => isInside(dir, file)))
    .map((file) => relative(root, file))
    .filter((file) => !file.startsWith('..'));
}

/** Where `name` is defined: the first `name: '…'` of the author's files, as file:line. */
function whereDefined(files, name) {
  const pattern = new RegExp(`\\bname:\\s*(['"\`])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`);
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const index = lines.findIndex((line) => pattern.test(line));
    if (index !== -1) return `${file}:${index + 1}`;
  }
  return undefined;
}

/** The first frame of a load error in the author's files (else in any source file), as file:line:column. */
function authorFrame(error, files) {
  const frames = String(error?.stack ?? '')
    .split('\n')
    .filter((line) => line.trim().startsWith('at '));
  for (const frame of frames) {
    const file = files.find((candidate) => frame.includes(`/${candidate}:`));
    if (file) return `${file}${/:\d+:\d+/.exec(frame.slice(frame.indexOf(`/${file}:`)))?.[0] ?? ''}`;
  }
  return frames
    .find((line) => line.includes('/src/'))
    ?.trim()
    .replace(/^at\s+/, '');
}

const post = (method, params = {}) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(params.uri ? { 'Mcp-Name': params.uri } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });

/** A question the check asks the Worker, answered with its result, or thrown as a `Refused` naming its error. */
async function ask(worker, env, method, params) {
  const reply = await (await worker.fetch(post(method, params), env, noContext)).json();
  if (reply.error) throw new Refused(`${method} answered ${reply.error.code} ${reply.error.message}`);
  return reply.result;
}
class Refused extends Error {}

/**
 * Every item a client would list (`tools`, `prompts` or `resources`), page by page; none when the
 * server does not declare that kind (asking would be answered -32601, a line in its request log).
 */
async function listAll(worker, env, capabilities, key) {
  if (!capabilities[key]) return [];
  const items = [];
  let cursor;
  do {
    const result = await ask(worker, env, `${key}/list`, cursor ? { cursor } : {});
    items.push(...result[key]);
    cursor = result.nextCursor;
  } while (cursor);
  return items;
}

/**
 * The author's line a load error is about: the definition whose own mistake it is (`tool "add": …`,
 * as the core says it), else the first frame in the author's files (the line that lists it twice).
 */
function whereFailed(error, files) {
  const named = /^(?:tool|prompt|resource|resource template|view) "([^"]+)":/.exec(error?.message ?? '')?.[1];
  return (named && whereDefined(files, named)) ?? authorFrame(error, files);
}

/** Whether the Worker serves MCP Events: `server/discover` advertises `events`. */
async function eventsOn(worker, env) {
  const reply = await (await worker.fetch(post('server/discover'), env, noContext)).json();
  return reply.result?.capabilities?.events !== undefined;
}

async function check(config) {
  let loaded;
  try {
    loaded = await loadWorker(config);
  } catch (error) {
    const at = error?.bundle ? whereFailed(error, authorFiles(error.bundle)) : undefined;
    return [`the Worker fails to load: ${firstLine(error)}${at ? `\n      at ${at}` : ''}`];
  }
  const { worker, module, settings, warnings } = loaded;
  // What createWorker tells of the Worker (scripts/workerFacts.mjs); none for a fetch of another making.
  const facts = workerFacts(worker?.fetch);
  const deployment = deploymentProblems({ config, settings, warnings, module, facts });
  // The Worker would answer nothing with these settings: their fix comes first, the answers after.
  if (deployment.some((problem) => problem.startsWith('the Worker would refuse'))) return deployment;
  try {
    return [...deployment, ...(await answerProblems(config, loaded))];
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return [...deployment, `the Worker answered an error to the check: ${error.message}`];
  }
}

/** One line of what was thrown: its message, without the stack. */
const firstLine = (error) => String(error?.message ?? error).split('\n')[0];

/** What is wrong with what the Worker serves: its schemas, views and skills. */
async function answerProblems(config, { worker, settings, bundle }) {
  const files = authorFiles(bundle);
  // Listing needs no caller: the check asks as an anonymous client of a server with auth off.
  const env = anonymousEnv(settings, 'npm run check');
  const { capabilities } = await ask(worker, env, 'server/discover', {});
  const problems = [];
  // MCP Events' loopback callbacks are for a developer's machine (.dev.vars), never a deploy
  // (docs/events.md): the extension's own setting, read only while it is on (discover says so).
  if (settings.vars?.EVENTS_LOOPBACK_CALLBACKS === 'on' && (await eventsOn(worker, env)))
    problems.push(
      `${config}: EVENTS_LOOPBACK_CALLBACKS = "on" lets webhook subscriptions call back to http on loopback: for local development only, set it in .dev.vars, not in a config that deploys`,
    );
  for (const kind of ['tools', 'prompts']) {
    for (const item of await listAll(worker, env, capabilities, kind)) {
      const where = whereDefined(files, item.name) ?? `${kind.slice(0, -1)} "${item.name}"`;
      const valid = listedAs[kind];
      if (!valid(item)) {
        const errors = valid.errors.map((e) => `${e.instancePath || '/'} ${e.message}`);
        problems.push(
          `${where}: ${kind.slice(0, -1)} "${item.name}" is not a valid ${kind === 'tools' ? 'Tool' : 'Prompt'} of the spec: ${[...new Set(errors)].slice(-3).join('; ')}`,
        );
      }
      for (const key of kind === 'tools' ? ['inputSchema', 'outputSchema'] : []) {
        if (item[key] === undefined) continue;
        for (const why of metaSchemaErrors(item[key]))
          problems.push(`${where}: tool "${item.name}" ${key} is not a valid JSON Schema ${why}`);
      }
    }
  }
  // Every view reads, as the deployed Worker would read it from its static assets: a page that
  // was never built (a misspelt `page`) fails here rather than as a 500 to a host (docs/apps.md).
  const assets = settings.assets?.directory && join(dirname(resolve(root, config)), settings.assets.directory);
  const ASSETS = {
    fetch: async (url) => {
      const file = assets && join(assets, decodeURIComponent(new URL(url).pathname));
      return file && existsSync(file) ? new Response(readFileSync(file)) : new Response(null, { status: 404 });
    },
  };
  const resources = await listAll(worker, env, capabilities, 'resources');
  for (const view of resources.filter((r) => r.mimeType === 'text/html;profile=mcp-app')) {
    const reply = await (
      await worker.fetch(post('resources/read', { uri: view.uri }), { ...env, ASSETS }, noContext)
    ).json();
    if (reply.error)
      problems.push(
        `${whereDefined(files, view.name) ?? `view "${view.uri}"`}: view "${view.uri}" cannot be read: ${reply.error.message}`,
      );
  }
  // So is each skill's SKILL.md a caller may list (docs/skills.md): an [assets] directory that
  // does not hold build/skills/ fails here, not as a 500 to a host.
  for (const skill of resources.filter((r) => r.uri.startsWith('skill://') && r.uri.endsWith('/SKILL.md'))) {
    const reply = await (
      await worker.fetch(post('resources/read', { uri: skill.uri }), { ...env, ASSETS }, noContext)
    ).json();
    if (reply.error)
      problems.push(
        `skills/${skill.uri.slice('skill://'.length)}: skill "${skill.uri}" cannot be read: ${reply.error.message}`,
      );
  }
  return problems;
}

const configs =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : readdirSync(root).filter((file) => /^wrangler(\..+)?\.toml$/.test(file));
let failed = false;
for (const config of configs) {
  let problems;
  try {
    problems = await check(config);
  } catch (error) {
    // A config wrangler cannot read, a build that fails: its own words, once, without a stack.
    problems = [firstLine(error)];
  }
  if (problems.length === 0) {
    console.log(`check-worker: ${config}: loads, and every schema is valid`);
    continue;
  }
  failed = true;
  console.error(`check-worker: ${config}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}
process.exit(failed ? 1 : 0);
