/**
 * The Worker's `env`. `npm run cf-typegen` (`wrangler types`) generates `WranglerEnv` into
 * worker-configuration.d.ts from wrangler.toml and the secrets named in .dev.vars.example;
 * `npm run check` fails when that file is stale. What follows types as optional what a
 * deployment may leave out, so the code must handle its absence.
 */
interface Env extends Omit<WranglerEnv, keyof OptionalEnv>, OptionalEnv {}

/** Read by the Worker, never required: each has a default or turns its feature off when absent. */
interface OptionalEnv {
  /** Key that seals MRTR `requestState`: `.dev.vars` locally, `wrangler secret put MCP_STATE_SECRET` deployed. */
  MCP_STATE_SECRET?: string;
  /** Secret for AUTH_MODE = "bearer" (`wrangler secret put MCP_BEARER_TOKEN`). */
  MCP_BEARER_TOKEN?: string;
  /** Host names (with * wildcards and :* ports) the endpoint answers to; empty or absent allows any. */
  ALLOWED_HOSTS?: string;
  /** Vars for AUTH_MODE = "jwt": see docs/auth.md. */
  AUTH_JWKS_URL?: string;
  AUTH_RESOURCE?: string;
  AUTH_SERVERS?: string;
  AUTH_SCOPES?: string;
  /** How long a fetch of the issuer's keys may take, in ms (default 3000). */
  AUTH_JWKS_TIMEOUT_MS?: string;
  /** subscriptions/listen streams per isolate (default 100). */
  LISTEN_MAX_STREAMS?: string;
  /** Rate Limiting bindings: a fork may remove them from wrangler.toml to turn rate limits off. */
  MCP_RATE_LIMITER?: RateLimit;
  DISCOVER_RATE_LIMITER?: RateLimit;
  /** Per client address, before any token is verified (only with authorization on). */
  ADDRESS_RATE_LIMITER?: RateLimit;
}
