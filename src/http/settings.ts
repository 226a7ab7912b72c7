/**
 * Deployment settings read from the Worker's vars and secrets. They are parsed once per
 * isolate and reused until the values change.
 */

export interface Settings {
  /** True when a browser page at `origin` may call the endpoint. */
  allowsOrigin(origin: string): boolean;
  /** True when the request's Host is acceptable (ALLOWED_HOSTS; empty allows any). */
  allowsHost(host: string | null): boolean;
  /** True when ALLOWED_HOSTS is empty: any Host is allowed, so there is nothing to read. */
  anyHost: boolean;
  maxBodyBytes: number;
  /**
   * Key for sealing `requestState` (spec 2026-07-28 basic/patterns/mrtr): MCP_STATE_SECRET, or,
   * when that is not set, a random key of this isolate (see `isolateSecret`).
   */
  stateSecret: string;
  /** How long a `subscriptions/listen` stream stays open before the server ends it gracefully. */
  listenMaxMs: number;
  /** How many `subscriptions/listen` streams one isolate keeps open at once. */
  listenMaxStreams: number;
  /** Serve clients of the `initialize` era too (LEGACY_CLIENTS = "on", the default). */
  legacyClients: boolean;
  auth: AuthSettings;
  /**
   * REQUEST_LOGS: "on" writes one structured line per request, "errors" (the default) only for
   * requests answered with an error or a refusal, anything else none.
   */
  requestLogs: 'on' | 'errors' | 'off';
}

/** AUTH_MODE = none (default) | bearer (the secret MCP_BEARER_TOKEN) | jwt (an OAuth authorization server). */
export type AuthSettings = CommonAuthSettings &
  (
    | { mode: 'none'; issuer?: string; resource?: undefined }
    | { mode: 'bearer'; issuer?: string; resource?: undefined }
    | {
        mode: 'jwt';
        /** AUTH_ISSUER: the `iss` every token must carry. */
        issuer: string;
        /** AUTH_RESOURCE: this server's resource identifier, the `aud` tokens must name; never taken from the request. */
        resource: string;
      }
  );

/** What jwt mode is sure to have: the issuer and this server's resource identifier. */
export type JwtAuthSettings = Extract<AuthSettings, { mode: 'jwt' }>;

interface CommonAuthSettings {
  bearerToken?: string;
  /** AUTH_JWKS_URL: the issuer's keys (default `<issuer>/.well-known/jwks.json`). */
  jwksUrl: string;
  /** AUTH_JWKS_TIMEOUT_MS: how long a fetch of the issuer's keys may take (default 3000). */
  jwksTimeoutMs: number;
  /** AUTH_SERVERS: authorization servers to advertise (default the issuer). */
  authorizationServers: string[];
  /** AUTH_SCOPES: scopes to advertise. */
  scopesSupported: string[];
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_LISTEN_MAX_SECONDS = 600;
export const DEFAULT_LISTEN_MAX_STREAMS = 100;
export const DEFAULT_JWKS_TIMEOUT_MS = 3_000;
const MAX_JWKS_TIMEOUT_MS = 30_000;
let randomSecret: string | undefined;

/**
 * Without MCP_STATE_SECRET, `requestState` is sealed with a random key made once per isolate:
 * nothing in the source can forge it, and state sealed by one isolate opens only in that
 * isolate. A retry that lands on another isolate (another instance, or after a restart) is
 * refused with -32602 and the client starts the request again. Set the secret to share state
 * across isolates. Made on first use, inside a request (the runtime allows no randomness at
 * module load).
 */
export function isolateSecret(): string {
  if (randomSecret === undefined) {
    randomSecret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    console.warn(
      'MCP_STATE_SECRET is not set: requestState is sealed with a random key of this isolate, so a multi round-trip request ' +
        'whose retry reaches another isolate must start again. Set it (`wrangler secret put MCP_STATE_SECRET`) before deploying.',
    );
  }
  return randomSecret;
}

let cached: { env: Env; key: string; settings: Settings } | undefined;

export function settingsFor(env: Env): Settings {
  // The runtime hands every request of an isolate the same env object: one comparison.
  if (cached?.env === env) return cached.settings;
  const key = [
    env.ALLOWED_ORIGINS,
    env.MAX_BODY_BYTES,
    env.MCP_STATE_SECRET,
    env.LISTEN_MAX_SECONDS,
    env.LISTEN_MAX_STREAMS,
    env.LEGACY_CLIENTS,
    env.AUTH_MODE,
    env.AUTH_ISSUER,
    env.AUTH_JWKS_URL,
    env.AUTH_RESOURCE,
    env.AUTH_JWKS_TIMEOUT_MS,
    env.AUTH_SERVERS,
    env.AUTH_SCOPES,
    env.MCP_BEARER_TOKEN,
    env.REQUEST_LOGS,
    env.ALLOWED_HOSTS,
  ].join('\n');
  if (cached?.key !== key) cached = { env, key, settings: parseSettings(env) };
  else cached.env = env;
  return cached.settings;
}

function parseSettings(env: Env): Settings {
  const patterns = (env.ALLOWED_ORIGINS ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(wildcardPattern);
  const hosts = list(env.ALLOWED_HOSTS).map(wildcardPattern);
  return {
    // spec 2026-07-28 streamable-http, Security: an Origin that is present must be valid. The
    // request's own host is not trusted: under DNS rebinding the attacker's page is "same-origin".
    allowsOrigin: (origin) => patterns.some((p) => p.test(origin)),
    // Against DNS rebinding of a local server: a name that resolves to 127.0.0.1 still carries its own Host.
    allowsHost: hosts.length === 0 ? () => true : (host) => host !== null && hosts.some((p) => p.test(host)),
    anyHost: hosts.length === 0,
    maxBodyBytes: positive(env.MAX_BODY_BYTES) ?? DEFAULT_MAX_BODY_BYTES,
    stateSecret: env.MCP_STATE_SECRET || isolateSecret(),
    listenMaxMs: (positive(env.LISTEN_MAX_SECONDS) ?? DEFAULT_LISTEN_MAX_SECONDS) * 1000,
    listenMaxStreams: positive(env.LISTEN_MAX_STREAMS) ?? DEFAULT_LISTEN_MAX_STREAMS,
    legacyClients: env.LEGACY_CLIENTS !== 'off',
    auth: parseAuth(env),
    requestLogs: env.REQUEST_LOGS === 'on' || env.REQUEST_LOGS === 'errors' ? env.REQUEST_LOGS : 'off',
  };
}

const list = (value: string | undefined) => (value ?? '').split(/[\s,]+/).filter(Boolean);

function parseAuth(env: Env): AuthSettings {
  const mode = env.AUTH_MODE === 'jwt' || env.AUTH_MODE === 'bearer' ? env.AUTH_MODE : 'none';
  const issuer = env.AUTH_ISSUER || undefined;
  const resource = env.AUTH_RESOURCE || undefined;
  if (mode === 'bearer' && !env.MCP_BEARER_TOKEN) console.warn('AUTH_MODE = "bearer" but MCP_BEARER_TOKEN is not set: every request is refused');
  const jwksTimeoutMs = env.AUTH_JWKS_TIMEOUT_MS ? positive(env.AUTH_JWKS_TIMEOUT_MS) : DEFAULT_JWKS_TIMEOUT_MS;
  if (jwksTimeoutMs === undefined || jwksTimeoutMs > MAX_JWKS_TIMEOUT_MS) {
    throw new Error(`AUTH_JWKS_TIMEOUT_MS must be a whole number of milliseconds from 1 to ${MAX_JWKS_TIMEOUT_MS}`);
  }
  const common = {
    bearerToken: env.MCP_BEARER_TOKEN || undefined,
    jwksUrl: env.AUTH_JWKS_URL || `${issuer ?? ''}/.well-known/jwks.json`,
    jwksTimeoutMs,
    authorizationServers: list(env.AUTH_SERVERS).length > 0 ? list(env.AUTH_SERVERS) : issuer ? [issuer] : [],
    scopesSupported: list(env.AUTH_SCOPES),
  };
  if (mode !== 'jwt') return { ...common, mode, issuer };
  if (!issuer) throw new Error('AUTH_MODE = "jwt" needs AUTH_ISSUER');
  // The audience tokens must name comes from configuration only, never from the request's Host
  // (spec 2026-07-28 basic/authorization, Token Audience Binding and Validation).
  if (!resource) throw new Error('AUTH_MODE = "jwt" needs AUTH_RESOURCE: this server\'s resource identifier, the `aud` its tokens carry');
  return { ...common, mode, issuer, resource };
}

const positive = (value: string | undefined) => {
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
};

/**
 * Origins and hosts with wildcards: `https://app.example.com` matches itself;
 * `https://*.example.com` any subdomain; `http://localhost:*` (or `localhost:*`) any port;
 * a lone `*` everything.
 */
function wildcardPattern(pattern: string): RegExp {
  if (pattern === '*') return /^/;
  const source = pattern
    .toLowerCase()
    .replace(/\/+$/, '')
    .split('*')
    .map((part) => part.replace(/[.?+^$()[\]{}|\\/]/g, '\\$&'))
    .join('\u0000')
    .replace(/:\u0000$/, '(?::\\d+)?')
    .replace(/\u0000/g, '[a-z0-9-]+(?:\\.[a-z0-9-]+)*');
  return new RegExp(`^${source}$`, 'i');
}
