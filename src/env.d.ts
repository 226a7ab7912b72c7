/**
 * The Worker's `env`. `npm run cf-typegen` (`wrangler types`) generates `WranglerEnv` into
 * worker-configuration.d.ts from wrangler.toml and the secrets named in .dev.vars.example;
 * `npm run check` fails when that file is stale. Every setting of the table in
 * src/http/settingsTable.ts and of each auth mode the template ships (src/auth, src/signin) is typed here as optional text, since a deployment may leave any
 * out (each has a default, or is refused with a clear error when a mode needs it).
 */
interface Env extends Omit<WranglerEnv, keyof OptionalEnv>, OptionalEnv {}

/** The settings (optional text), and the bindings a deployment may leave out. */
interface OptionalEnv
  extends Partial<Record<import('./http/settingsTable').SettingName | import('./auth').ModeSettingName, string>> {
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
