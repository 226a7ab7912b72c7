/**
 * What `npm run check` (scripts/check-worker.mjs) holds a wrangler config to, beside the Worker's
 * answers: that it deploys what src/index.ts turned on, read as the deployed Worker reads it.
 *
 * - every warning wrangler prints about the config (a misspelt `[[durable_object.bindings]]` is
 *   only a warning to wrangler, and a Worker without its binding);
 * - the settings of `[vars]`, with the secrets assumed set and the bindings the config declares,
 *   read by the Worker's own reader: a value it would refuse every request over fails here, with
 *   the same words (src/http/settings/settings.ts) and what the value most likely means, and a var
 *   that misspells a setting is named with it;
 * - `AUTH_MODE = "none"` beside the one mode `auth` lists, which would serve that mode's Worker open;
 * - each Durable Object an extension runs in or an auth mode needs: its binding, its class exported
 *   by the entry, and a migration that creates it, in order, with the block to paste when missing.
 *
 * `facts` is what the Worker tells of itself (scripts/workerFacts.mjs); without them (a `fetch` that
 * is not createWorker's) only wrangler's warnings are checked.
 */
import { relative, resolve } from 'node:path';

/** The kinds of binding a config declares, and the field that names each in `env`. */
const BINDINGS = [
  ['kv_namespaces', 'binding'],
  ['r2_buckets', 'binding'],
  ['d1_databases', 'binding'],
  ['ratelimits', 'name'],
  ['services', 'binding'],
  ['analytics_engine_datasets', 'binding'],
  ['vectorize', 'binding'],
  ['hyperdrive', 'binding'],
  ['workflows', 'binding'],
  ['send_email', 'name'],
  ['secrets_store_secrets', 'binding'],
];

/** A stand-in for each binding the config declares: the Worker's reader only asks whether one is there. */
function bindingsOf(settings) {
  const named = [
    ...BINDINGS.flatMap(([key, field]) => (settings[key] ?? []).map((entry) => entry[field])),
    ...(settings.durable_objects?.bindings ?? []).map((entry) => entry.name),
    ...(settings.queues?.producers ?? []).map((entry) => entry.binding),
    ...['assets', 'ai', 'browser', 'images', 'version_metadata'].map((key) => settings[key]?.binding),
  ];
  return Object.fromEntries(named.filter(Boolean).map((name) => [name, {}]));
}

/** Every problem of `config` (its path as given) with the Worker `facts` describe and the entry's exports `module`. */
export function deploymentProblems({ config, settings, warnings, module, facts }) {
  const problems = warnings.map((warning) => `wrangler warns about it: ${warning}`);
  if (!facts) return problems;
  const vars = settings.vars ?? {};
  for (const name of Object.keys(vars)) {
    if (facts.secrets.includes(name))
      problems.push(`${name} is a secret: set it with \`wrangler secret put ${name}\`, not in [vars]`);
    const near = facts.nearestSetting(name);
    if (near) problems.push(`[vars] ${name} is not a setting of this Worker: did you mean ${near}?`);
  }
  const secrets = Object.fromEntries(facts.secrets.map((name) => [name, 'set-with-wrangler-secret-put']));
  const refusal = facts.refusal({ ...secrets, ...vars, ...bindingsOf(settings) });
  // A misspelt AUTH_ var is both: said once, as the Worker says it; a missing Durable Object binding is said below, with its block.
  const objectBinding = facts.durableObjects.some(({ binding }) => binding === refusal?.setting);
  if (refusal && !objectBinding && !problems.some((problem) => problem.startsWith(`[vars] ${refusal.setting} `))) {
    // The Worker names the value and what it accepts; what the value most likely means is the check's to say.
    const meant = refusal.setting === 'AUTH_MODE' ? facts.meantMode(vars.AUTH_MODE) : undefined;
    problems.push(`the Worker would refuse every request: the setting ${refusal.message}${meant ? `; ${meant}` : ''}`);
  }
  if (facts.authModes.length === 1 && vars.AUTH_MODE === 'none') {
    const [mode] = facts.authModes;
    problems.push(
      `AUTH_MODE = "none" turns off ${mode}, the one mode src/index.ts lists in \`auth\`, and serves everyone: delete AUTH_MODE to serve ${mode}, or take ${mode} out of \`auth\` to serve no auth`,
    );
  }
  const main = settings.main ? relative(process.cwd(), resolve(settings.main)) : 'the entry';
  return [...problems, ...durableObjectProblems(config, settings, module, facts.durableObjects, main)];
}

const numbered = (tag) => /^v(\d+)$/.exec(tag ?? '')?.[1];
const creates = (migration, className) =>
  [...(migration.new_sqlite_classes ?? []), ...(migration.new_classes ?? [])].includes(className) ||
  (migration.renamed_classes ?? []).some((renamed) => renamed.to === className);
const block = (lines) => `\n\n      ${lines.join('\n      ')}\n`;

/** A tag no migration has: one past the highest `v<n>`. */
function nextTag(migrations) {
  let next = Math.max(0, ...migrations.map((m) => Number(numbered(m.tag) ?? 0))) + 1;
  while (migrations.some((m) => m.tag === `v${next}`)) next++;
  return `v${next}`;
}

function durableObjectProblems(config, settings, module, objects, main) {
  const bindings = settings.durable_objects?.bindings ?? [];
  const migrations = settings.migrations ?? [];
  const problems = [];
  for (const { binding, className, exportLine } of objects) {
    const bound = bindings.find((entry) => entry.name === binding);
    if (!bound)
      problems.push(
        `${className} runs in a Durable Object with no binding: add to ${config}:${block(['[[durable_objects.bindings]]', `name = "${binding}"`, `class_name = "${className}"`])}`,
      );
    else if (bound.class_name !== className || bound.script_name)
      problems.push(
        `[[durable_objects.bindings]] ${binding} must name this Worker's class: class_name = "${className}", no script_name`,
      );
    if (typeof module[className] !== 'function')
      problems.push(`${main} does not export the class ${className}: add \`${exportLine}\``);
    if (!migrations.some((migration) => creates(migration, className)))
      problems.push(
        `${className} has no migration that creates it: add at the end of ${config}:${block(['[[migrations]]', `tag = "${nextTag(migrations)}"`, `new_sqlite_classes = ["${className}"]`])}`,
      );
  }
  // wrangler applies, in file order, the migrations after the last tag it deployed: a new one goes last, under a tag of its own.
  const what = (migration) => {
    const classes = [...(migration.new_sqlite_classes ?? []), ...(migration.new_classes ?? [])];
    return `"${migration.tag}"${classes.length ? ` (${classes.join(', ')})` : ''}`;
  };
  migrations.forEach((migration, index) => {
    const earlier = migrations.slice(0, index);
    if (earlier.some((other) => other.tag === migration.tag))
      problems.push(
        `two [[migrations]] are tagged "${migration.tag}": wrangler would skip the second; keep "${migration.tag}" on the one deployed first, and tag the other "${nextTag(migrations)}", below it`,
      );
    const after = earlier.find((other) => Number(numbered(other.tag)) > Number(numbered(migration.tag)));
    if (numbered(migration.tag) && after)
      problems.push(
        `[[migrations]] ${what(after)} comes before ${what(migration)}: wrangler applies, in file order, the migrations after the last one it deployed, so a new one goes last: move ${what(after)} below ${what(migration)}`,
      );
  });
  return problems;
}
