/**
 * What `npm run check` (scripts/check-worker.mjs, scripts/checkDeployment.mjs) reads of a Worker
 * besides its answers, to hold the deployment's config to what src/index.ts turned on: the
 * settings as this Worker reads them, the auth modes it lists, the Durable Object each extension
 * runs in, and what a refused value most likely means. Worked out here, in Node, from what the
 * Worker is composed of (`Composition` of src/createWorker.ts, on its `fetch`), so the deployed
 * Worker carries none of it: its own refusal names the setting, its value (in the log) and the
 * values it accepts; the "did you mean" is the check's.
 */

/** The facts of the Worker whose `fetch` this is, or undefined for a `fetch` that is not createWorker's. */
export function workerFacts(fetch) {
  const composition = fetch?.[Symbol.for('mcp-worker-framework/composition')];
  if (!composition) return undefined;
  const { auth, extensions, settings: table, refusal } = composition;
  const settings = Object.keys(table);
  const authModes = auth.map((mode) => mode.name);
  return {
    /** The AUTH_MODE values of the modes `auth` lists. */
    authModes,
    /** Every setting this Worker reads (the core's, and its modes'). */
    settings,
    /** Those a deployment sets with `wrangler secret put`, never in `wrangler.toml`. */
    secrets: settings.filter((name) => table[name].secret),
    /** The setting `name` most likely misspells, when it is none itself. */
    nearestSetting: (name) => (settings.includes(name) ? undefined : nearestName(name, settings)),
    /** What an AUTH_MODE the Worker refuses most likely means: a mode the package ships that `auth` does not list, or a misspelling. */
    meantMode: (value) => meantMode(value, authModes),
    /** Why this Worker refuses to serve with `env` (a setting, or a binding its mode needs), as every request would be told. */
    refusal,
    /** The Durable Objects its extensions run in and its auth modes need: each one's binding, its class, and the line of src/index.ts that exports it. */
    durableObjects: [
      ...extensions.flatMap(({ durableObject: object }) =>
        object
          ? [
              {
                binding: object.binding,
                className: object.name,
                exportLine: `export class ${object.name} extends worker.${object.name} {}`,
              },
            ]
          : [],
      ),
      ...auth.flatMap((mode) => mode.durableObjects ?? []),
    ],
  };
}

/** The modes the package ships, by AUTH_MODE value: what src/index.ts lists in `auth` to serve each. */
export const SHIPPED_MODES = {
  bearer: "bearer (from 'mcp-worker-framework/auth')",
  jwt: "jwt (from 'mcp-worker-framework/auth')",
  access: "access (from 'mcp-worker-framework/auth')",
  introspect: "introspect (from 'mcp-worker-framework/auth')",
  signin: "signIn() (from 'mcp-worker-framework/signin')",
};

function meantMode(value, listed) {
  if (typeof value !== 'string' || value === 'none' || listed.includes(value)) return undefined;
  if (Object.hasOwn(SHIPPED_MODES, value))
    return `to serve it, list ${SHIPPED_MODES[value]} in \`auth: [...]\` in src/index.ts (docs/production.md)`;
  const near = nearestName(value, [...listed, ...Object.keys(SHIPPED_MODES), 'none']);
  return near ? `did you mean "${near}"?` : 'no auth mode has that name';
}

/**
 * The name of `names` that `name` most likely misspells: at most two letters added, dropped or
 * changed (and no more than a third of it), or undefined.
 */
function nearestName(name, names) {
  let best;
  let bestDistance = Math.min(2, Math.floor(name.length / 3));
  for (const candidate of names) {
    const distance = editDistance(name.toUpperCase(), candidate.toUpperCase(), bestDistance);
    if (distance <= bestDistance && candidate !== name) [best, bestDistance] = [candidate, distance - 1];
  }
  return best;
}

/** Levenshtein distance of `a` and `b`, or more than `limit` as soon as it must be. */
function editDistance(a, b, limit) {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
