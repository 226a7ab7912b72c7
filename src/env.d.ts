/** Secrets are not in wrangler.toml, so `wrangler types` cannot see them: declared here. */
interface Env {
  /** Optional var: Host names (with * wildcards and :* ports) the endpoint answers to; empty allows any. */
  ALLOWED_HOSTS?: string;
  /** Secret for AUTH_MODE = "bearer" (`wrangler secret put MCP_BEARER_TOKEN`). */
  MCP_BEARER_TOKEN?: string;
  /** Optional vars: see the README's Authorization section. */
  AUTH_JWKS_URL?: string;
  AUTH_RESOURCE?: string;
  AUTH_SERVERS?: string;
  AUTH_SCOPES?: string;
  /** The Rate Limiting bindings are optional: a fork may remove them from wrangler.toml. */
  MCP_RATE_LIMITER?: RateLimit;
  DISCOVER_RATE_LIMITER?: RateLimit;
  /** Key for sealing MRTR `requestState` (`wrangler secret put MCP_STATE_SECRET`). */
  MCP_STATE_SECRET?: string;
  /** Optional var: subscriptions/listen streams per isolate (default 100). */
  LISTEN_MAX_STREAMS?: string;
}
