/**
 * The deployment's settings, read from the Worker's vars and secrets by the table in
 * `./settingsTable.ts`, once per isolate and again only when the values change. A value that
 * cannot be read is a `SettingError`: the router then answers every request with it (500,
 * naming the setting), so a typo never serves the endpoint open (docs/production.md).
 */
import { parseSettingValues, SETTINGS, SettingError, type SettingName, type SettingValues } from './settingsTable';

export { SettingError } from './settingsTable';

/** What the steps of a request read: the table's values, and what is worked out from them once. */
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
  /** AI_CATALOG: serve `/.well-known/ai-catalog.json` (discovery.ts). */
  aiCatalog: boolean;
  /** MCP_REGISTRY_AUTH: the proof line served at `/.well-known/mcp-registry-auth` (registryAuth.ts). */
  registryAuth: string | undefined;
  /** REQUEST_LOGS: "on" writes one line per request, "errors" only for errors and refusals, "off" none. */
  requestLogs: SettingValues['REQUEST_LOGS'];
}

/** AUTH_MODE and what it needs. */
export type AuthSettings =
  | { mode: 'none'; scopesSupported: readonly string[]; authorizationServers: readonly string[] }
  | BearerAuthSettings
  | JwtAuthSettings
  | AccessAuthSettings
  | IntrospectAuthSettings
  | SignInAuthSettings;

/** AUTH_MODE = "bearer": the one secret MCP_BEARER_TOKEN. */
export interface BearerAuthSettings {
  mode: 'bearer';
  bearerToken: string;
  scopesSupported: readonly string[];
  authorizationServers: readonly string[];
}

/**
 * AUTH_MODE = "access": Cloudflare Access sits in front and signs each request it lets through
 * (`Cf-Access-Jwt-Assertion`); the Worker verifies that token against the team's certs
 * (docs/access.md). No metadata to advertise: clients sign in at Access, not at an OAuth server.
 */
export interface AccessAuthSettings {
  mode: 'access';
  /** ACCESS_TEAM_DOMAIN: the `iss` of Access tokens, e.g. `https://acme.cloudflareaccess.com`. */
  issuer: string;
  /** `<team domain>/cdn-cgi/access/certs`: the team's signing keys. */
  certsUrl: string;
  /** AUTH_JWKS_TIMEOUT_MS: how long a fetch of the certs may take. */
  certsTimeoutMs: number;
  /** ACCESS_AUD: the applications' AUD tags, one of which tokens must name in `aud`. */
  audiences: readonly string[];
  /** ACCESS_SCOPES_CLAIM: the claim whose values are the caller's scopes, if any. */
  scopesClaim: string | undefined;
  scopesSupported: readonly string[];
  authorizationServers: readonly string[];
}

/** AUTH_MODE = "introspect": opaque tokens, each asked about at the authorization server (RFC 7662). */
export interface IntrospectAuthSettings {
  mode: 'introspect';
  /** AUTH_INTROSPECTION_URL */
  url: string;
  /** AUTH_INTROSPECTION_CLIENT_ID and AUTH_INTROSPECTION_CLIENT_SECRET: HTTP Basic to the endpoint (RFC 7662 2.1). */
  clientId: string;
  clientSecret: string;
  /** AUTH_RESOURCE: an answer's `aud`, when it has one, must name it. */
  resource: string;
  /** AUTH_INTROSPECTION_CACHE_SECONDS: the longest an answer is kept (and never past the token's `exp`). */
  cacheSeconds: number;
  /** AUTH_INTROSPECTION_TIMEOUT_MS */
  timeoutMs: number;
  /** AUTH_SERVERS, else AUTH_ISSUER, else none (then no metadata is served). */
  authorizationServers: readonly string[];
  scopesSupported: readonly string[];
}

/** AUTH_MODE = "jwt": tokens from `issuer`, for `resource`, which comes from configuration only (never the request). */
export interface JwtAuthSettings {
  mode: 'jwt';
  /** AUTH_ISSUER: the `iss` every token must carry. */
  issuer: string;
  /** AUTH_JWKS_URL: the issuer's keys (default `<issuer>/.well-known/jwks.json`). */
  jwksUrl: string;
  /** AUTH_JWKS_TIMEOUT_MS: how long a fetch of the issuer's keys may take. */
  jwksTimeoutMs: number;
  /** AUTH_RESOURCE: this server's resource identifier, the `aud` tokens must name. */
  resource: string;
  /** AUTH_SERVERS: authorization servers to advertise (default the issuer). */
  authorizationServers: readonly string[];
  /** AUTH_SCOPES: scopes to advertise. */
  scopesSupported: readonly string[];
}

/**
 * AUTH_MODE = "signin" (docs/sign-in.md): the Worker is its own OAuth authorization server and
 * signs users in through an upstream provider. Its issuer is the origin of AUTH_RESOURCE: both
 * come from configuration, never from the request's Host. The LOGIN_* values are read by the
 * sign-in entry itself (`loginSettings` of ./settingsTable.ts, which only src/signin calls), so other bundles do not carry that code.
 */
export interface SignInAuthSettings {
  mode: 'signin';
  /** The origin of AUTH_RESOURCE: this Worker, as RFC 8414 and RFC 9207 name it. */
  issuer: string;
  resource: string;
  /** The Worker itself, the only authorization server its metadata advertises. */
  authorizationServers: readonly string[];
  scopesSupported: readonly string[];
  /** Every parsed value, for `loginSettings` (./settingsTable.ts). */
  values: SettingValues;
}

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

const NAMES = Object.keys(SETTINGS) as SettingName[];
let cached: { env: Env; key: string; settings: Settings | SettingError } | undefined;

/** The settings of `env`, or the error that names the one that cannot be read (logged once per isolate). */
export function settingsFor(env: Env): Settings | SettingError {
  // The runtime hands every request of an isolate the same env object: one comparison.
  if (cached?.env === env) return cached.settings;
  const vars = env as unknown as Record<string, unknown>;
  const key = NAMES.map((name) => vars[name]).join('\n');
  if (cached?.key !== key) {
    const values = parseSettingValues(vars);
    if (values instanceof SettingError) console.error(`refusing to serve: the setting ${values.message}`);
    cached = { env, key, settings: values instanceof SettingError ? values : settingsOf(values) };
  } else cached.env = env;
  return cached.settings;
}

function settingsOf(values: SettingValues): Settings {
  const origins = values.ALLOWED_ORIGINS.map(wildcardPattern);
  const hosts = values.ALLOWED_HOSTS.map(wildcardPattern);
  return {
    // spec 2026-07-28 streamable-http, Security: an Origin that is present must be valid. The
    // request's own host is not trusted: under DNS rebinding the attacker's page is "same-origin".
    allowsOrigin: (origin) => origins.some((p) => p.test(origin)),
    // Against DNS rebinding of a local server: a name that resolves to 127.0.0.1 still carries its own Host.
    allowsHost: hosts.length === 0 ? () => true : (host) => host !== null && hosts.some((p) => p.test(host)),
    anyHost: hosts.length === 0,
    maxBodyBytes: values.MAX_BODY_BYTES,
    stateSecret: values.MCP_STATE_SECRET ?? isolateSecret(),
    listenMaxMs: values.LISTEN_MAX_SECONDS * 1000,
    listenMaxStreams: values.LISTEN_MAX_STREAMS,
    legacyClients: values.LEGACY_CLIENTS === 'on',
    aiCatalog: values.AI_CATALOG === 'on',
    registryAuth: values.MCP_REGISTRY_AUTH,
    auth: authOf(values),
    requestLogs: values.REQUEST_LOGS,
  };
}

/** The settings of the authorization mode; `parseSettingValues` has checked that what a mode needs is there. */
function authOf(values: SettingValues): AuthSettings {
  const scopesSupported = values.AUTH_SCOPES;
  const { AUTH_ISSUER: issuer, AUTH_RESOURCE: resource } = values;
  if (values.AUTH_MODE === 'jwt' && issuer !== undefined && resource !== undefined) {
    return {
      mode: 'jwt',
      issuer,
      resource,
      jwksUrl: values.AUTH_JWKS_URL ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`,
      jwksTimeoutMs: values.AUTH_JWKS_TIMEOUT_MS,
      authorizationServers: values.AUTH_SERVERS.length > 0 ? values.AUTH_SERVERS : [issuer],
      scopesSupported,
    };
  }
  if (values.AUTH_MODE === 'signin' && resource !== undefined) return signInOf(values, resource);
  if (values.AUTH_MODE === 'access' && values.ACCESS_TEAM_DOMAIN !== undefined && values.ACCESS_AUD.length > 0) {
    return {
      mode: 'access',
      issuer: values.ACCESS_TEAM_DOMAIN,
      certsUrl: `${values.ACCESS_TEAM_DOMAIN}/cdn-cgi/access/certs`,
      certsTimeoutMs: values.AUTH_JWKS_TIMEOUT_MS,
      audiences: values.ACCESS_AUD,
      scopesClaim: values.ACCESS_SCOPES_CLAIM,
      scopesSupported,
      authorizationServers: [],
    };
  }
  const { AUTH_INTROSPECTION_URL: url, AUTH_INTROSPECTION_CLIENT_ID: clientId, AUTH_INTROSPECTION_CLIENT_SECRET: clientSecret } = values;
  if (values.AUTH_MODE === 'introspect' && url !== undefined && clientId !== undefined && clientSecret !== undefined && resource !== undefined) {
    return {
      mode: 'introspect',
      url,
      clientId,
      clientSecret,
      resource,
      cacheSeconds: values.AUTH_INTROSPECTION_CACHE_SECONDS,
      timeoutMs: values.AUTH_INTROSPECTION_TIMEOUT_MS,
      authorizationServers: values.AUTH_SERVERS.length > 0 ? values.AUTH_SERVERS : issuer !== undefined ? [issuer] : [],
      scopesSupported,
    };
  }
  if (values.AUTH_MODE === 'bearer' && values.MCP_BEARER_TOKEN !== undefined) {
    return { mode: 'bearer', bearerToken: values.MCP_BEARER_TOKEN, scopesSupported, authorizationServers: [] };
  }
  return { mode: 'none', scopesSupported, authorizationServers: [] };
}

/** AUTH_MODE = "signin": issuer and resource from AUTH_RESOURCE; the LOGIN_* values for the sign-in entry. */
function signInOf(values: SettingValues, resource: string): SignInAuthSettings {
  const issuer = new URL(resource).origin;
  return { mode: 'signin', issuer, resource, authorizationServers: [issuer], scopesSupported: values.AUTH_SCOPES, values };
}

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
