/**
 * The Worker's `env`, as the framework reads it. The fork's own bindings come from
 * `Cloudflare.Env`, which `npm run cf-typegen` (`wrangler types`) generates into the fork's
 * worker-configuration.d.ts from its wrangler.toml; the settings of the table in
 * src/http/settingsTable.ts and of each auth mode (src/auth, src/signin) are typed here as
 * optional text, since a deployment may leave any out (each has a default, or is refused with a
 * clear error when a mode needs it), and so are the bindings a deployment may leave out.
 */
import type { ModeSettingName } from './auth';
import type { SettingName } from './http/settingsTable';

/** The settings (optional text), and the bindings a deployment may leave out. */
export interface FrameworkEnv extends Partial<Record<SettingName | ModeSettingName, string>> {
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
