/**
 * The Worker's `env`, as the framework hands it to every handler, step and route: the fork's
 * bindings (`Cloudflare.Env`, which `npm run cf-typegen` generates into the fork's
 * worker-configuration.d.ts from its wrangler.toml), with what the framework reads typed as a
 * deployment may leave it out. The core reads none of it; the type lives here so that every layer
 * can name it without importing the layers above (test/unit/import-graph.test.ts). The settings
 * of the table and of the auth modes are added to `FrameworkEnv` by `../env.ts`, which knows them
 * (declaration merging, as the extensions add to `ToolFields`).
 */

/** The bindings a deployment may leave out, and (from `../env.ts`) the settings, as optional text. */
export interface FrameworkEnv {
  /** Seals what a tool carries between the rounds of a request, and signs task ids (a secret). */
  MCP_STATE_SECRET?: string;
  /** The static assets: built views and skills (wrangler.toml's `[assets]`). */
  ASSETS?: Fetcher;
  /** Rate Limiting bindings: a fork may remove them from wrangler.toml to turn rate limits off. */
  MCP_RATE_LIMITER?: RateLimit;
  DISCOVER_RATE_LIMITER?: RateLimit;
  /** Per client address, before any token is verified (only with authorization on). */
  ADDRESS_RATE_LIMITER?: RateLimit;
  /** Sign-in's grants, clients and tokens (the sign-in block of wrangler.toml, docs/sign-in.md). */
  OAUTH_KV?: KVNamespace;
  /** The sign-in configuration's registrations and consent pages, per client address (required there). */
  SIGN_IN_RATE_LIMITER?: RateLimit;
}

/** The `env` every handler, step and route gets: the fork's bindings (`Cloudflare.Env`) and the framework's settings. */
export interface WorkerEnv extends Omit<Cloudflare.Env, keyof FrameworkEnv>, FrameworkEnv {}
