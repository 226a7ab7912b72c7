/**
 * A Worker built as `wrangler deploy` builds it and imported once in Node, for the scripts that
 * ask it what it serves without starting workerd: `npm run check` (scripts/check-worker.mjs) and
 * `npm run registry` (scripts/registry.mjs).
 *
 *   const { worker, settings, bundle } = await loadWorker('wrangler.toml');
 *   await worker.fetch(request, env, ctx);
 *
 * Throws what the Worker throws at load, with `bundle` (where its source map is) attached.
 */
import { readdirSync } from 'node:fs';
import { register } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unstable_readConfig as readConfig } from 'wrangler';
import { buildBundle } from './workerd.mjs';

// The runtime's own module, for a Worker that defines a Durable Object class: only its shape is needed to load.
const runtime =
  'export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }\n' +
  // workers-oauth-provider (sign-in) extends it at load
  'export class WorkerEntrypoint { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }';
register(
  `data:text/javascript,${encodeURIComponent(`export async function resolve(specifier, context, next) {
    if (specifier === 'cloudflare:workers') return { url: ${JSON.stringify(`data:text/javascript,${encodeURIComponent(runtime)}`)}, shortCircuit: true };
    return next(specifier, context);
  }`)}`,
);

/**
 * `config` (a wrangler*.toml, relative to the current directory, a fork's root, or absolute) read,
 * built and imported: its default export (`worker`), all its exports (`module`), the config
 * (`settings`) and what wrangler warns about it (`warnings`, one line each).
 */
export async function loadWorker(config) {
  const { settings, warnings } = readConfigWarnings(config);
  const bundle = buildBundle(resolve(config));
  const main = readdirSync(bundle).find((file) => file.endsWith('.js'));
  // What the runtime tells a module of its flags (workers-oauth-provider warns at load when
  // global_fetch_strictly_public is off): the config's own, so a warning says what is true of it.
  globalThis.Cloudflare = {
    compatibilityFlags: Object.fromEntries((settings.compatibility_flags ?? []).map((flag) => [flag, true])),
  };
  try {
    const module = await import(pathToFileURL(join(bundle, main)).href);
    return { worker: module.default, module, settings, warnings, bundle };
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { bundle });
  }
}

/** The config, and each warning wrangler prints while reading it (a field it does not know), without its colours. */
function readConfigWarnings(config) {
  const printed = [];
  const { warn } = console;
  console.warn = (...args) => printed.push(args.join(' '));
  try {
    const settings = readConfig({ config: resolve(config) }, { hideWarnings: false });
    const lines = printed
      .join('\n')
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !/^▲ \[WARNING\] Processing .* configuration:$/.test(line));
    // Each of wrangler's findings is a "- " line under the config's name; any other text is kept whole.
    const warnings = lines.some((line) => line.startsWith('- '))
      ? lines.filter((line) => line.startsWith('- ')).map((line) => line.slice(2))
      : lines;
    return { settings, warnings };
  } finally {
    console.warn = warn;
  }
}

/**
 * The settings to ask a Worker what it serves as an anonymous client, with authorization off: the
 * config's `[vars]` without the sign-in mode's LOGIN_ ones, which a Worker refuses with auth off,
 * and no request log (the questions of a script are not the deployment's traffic).
 */
export function anonymousEnv(settings, secret) {
  const vars = Object.fromEntries(Object.entries(settings.vars ?? {}).filter(([name]) => !name.startsWith('LOGIN_')));
  return { ...vars, AUTH_MODE: 'none', REQUEST_LOGS: 'off', MCP_STATE_SECRET: secret };
}

/** A `ctx` for `worker.fetch` outside the runtime: nothing is waited for. */
export const noContext = { waitUntil() {}, passThroughOnException() {} };
