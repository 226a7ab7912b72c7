/**
 * What `npm run check` (scripts/check-worker.mjs) reads of a Worker besides its answers, to hold
 * the deployment's config to what src/index.ts turned on: the settings as this Worker reads them,
 * the auth modes it lists, and the Durable Object each extension runs in. It rides on the
 * Worker's `fetch` under a symbol, so `export default { fetch: worker.fetch }` carries it, and it
 * is worked out only when asked: no request reads it.
 */
import { nearestName, type SettingError, type SettingRows } from './http/settings/settingsTable.js';
import type { WorkerEnv } from './mcp/internal.js';

export const WORKER_FACTS = Symbol.for('mcp-worker-framework/worker-facts');

export interface WorkerFacts {
  /** The AUTH_MODE values of the modes `auth` lists. */
  readonly authModes: readonly string[];
  /** Every setting this Worker reads (the core's, and its modes'). */
  readonly settings: readonly string[];
  /** Those a deployment sets with `wrangler secret put`, never in `wrangler.toml`. */
  readonly secrets: readonly string[];
  /** The setting `name` most likely misspells, when it is none itself. */
  nearestSetting(name: string): string | undefined;
  /** Why this Worker refuses to serve with `env` (a setting, or a binding its mode needs), as every request would be told. */
  refusal(env: Readonly<Record<string, unknown>>): SettingError | undefined;
  /** The Durable Objects its extensions run in: each one's binding, and the class src/index.ts exports for it. */
  readonly durableObjects: readonly { readonly binding: string; readonly className: string }[];
}

/** The facts of a Worker with the settings `table`, `authModes` and the Durable Objects listed, and the refusal its router gives. */
export function workerFacts(
  table: SettingRows,
  authModes: readonly string[],
  durableObjects: WorkerFacts['durableObjects'],
  refusal: (env: WorkerEnv) => SettingError | undefined,
): WorkerFacts {
  const settings = Object.keys(table);
  return {
    authModes,
    settings,
    secrets: settings.filter((name) => table[name]?.secret),
    nearestSetting: (name) => (settings.includes(name) ? undefined : nearestName(name, settings)),
    refusal: (env) => refusal(env as WorkerEnv),
    durableObjects,
  };
}
