/**
 * Every setting the Worker reads from its vars and secrets, declared once: its name, what it
 * accepts, its value when unset, and its parser. The rest is derived from this table: the
 * `Settings` record and its parser (`./settings.ts`), the key that tells when the values
 * changed, the optional part of `Env` (`src/env.d.ts`), the README's table (with the line of
 * `./settingsDocs.ts` for each, which the type there makes you write, and which stays out of the
 * Worker's bundle), and `npm run check`, which parses the `[vars]` of every `wrangler*.toml` with
 * these same parsers (`scripts/settings.mjs`).
 *
 * A value that does not parse is never read as "off": the Worker refuses to serve, naming the
 * setting and what it accepts (`./settings.ts`). To add a setting: a row here and its line in
 * `./settingsDocs.ts` (tsc fails until it has one), its value in `wrangler.toml` if it has one
 * there, then `npm run settings` (the README table) and `npm run cf-typegen`.
 *
 * This module imports nothing, so the scripts run it as it is (Node strips its types).
 */

/** A parser: the value read, or `Invalid` when the text cannot be a value of the setting. */
type Parse<T> = (text: string) => T | Invalid;

export interface Setting<T> {
  /** Its value when the var is unset or empty. */
  default: NoInfer<T>;
  /** What it accepts, as said in errors and in the README ("`on` or `off`"). */
  accepts: string;
  parse: Parse<T>;
  /** A secret (`.dev.vars`, `wrangler secret put`): never in `wrangler.toml`, never echoed. */
  secret?: true;
}

/** What a parser returns for text that is no value of its setting. */
export class Invalid {
  readonly why: string | undefined;
  constructor(why?: string) {
    this.why = why;
  }
}

const INVALID = new Invalid();

/** A row of the table, typed by its parser. */
const setting = <T>(row: Setting<T>): Setting<T> => row;

const oneOf =
  <const T extends string>(...values: T[]): Parse<T> =>
  (text) =>
    (values as string[]).includes(text) ? (text as T) : INVALID;

/** A decimal integer from `min` to `max`: no sign, exponent, hex or fraction. */
const integer =
  (min: number, max: number): Parse<number> =>
  (text) => {
    if (!/^\d{1,16}$/.test(text)) return INVALID;
    const value = Number(text);
    return value >= min && value <= max ? value : INVALID;
  };

/** Comma- or space-separated entries, each checked by `entry`. */
const listOf =
  (entry: (item: string) => boolean, what: string): Parse<readonly string[]> =>
  (text) => {
    const items = text.split(/[\s,]+/).filter(Boolean);
    const bad = items.find((item) => !entry(item));
    return bad === undefined ? items : new Invalid(`"${clip(bad)}" is not ${what}`);
  };

// Origins and hosts with the wildcards `wildcardPattern` understands: `*.` before a host, `:*` for any port.
const HOST = /^(?:\*\.)?(?:[a-z0-9-]+\.)*[a-z0-9-]+(?::(?:\d{1,5}|\*))?$|^\[[0-9a-f:.]+\](?::(?:\d{1,5}|\*))?$/i;
const ORIGIN = (item: string) => item === '*' || /^https?:\/\/[^/]+\/?$/i.test(item) && HOST.test(item.replace(/^https?:\/\//i, '').replace(/\/$/, ''));

/** An absolute `https:` URL, or `http:` on loopback (local development and tests). */
function isUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);
}

const url: Parse<string | undefined> = (text) => (isUrl(text) ? text : INVALID);

/**
 * The endpoint's public URL: an https URL (http on loopback) whose path is `/mcp`, the one path
 * the router serves MCP at, with nothing a client would drop or must not see (no query, fragment
 * or credentials). `npm run registry` checks its `--url` with this same parser.
 */
export const endpointUrl: Parse<string | undefined> = (text) => {
  if (!isUrl(text)) return INVALID;
  const { pathname, search, hash, username, password } = new URL(text);
  if (pathname !== '/mcp') return new Invalid(`its path is "${clip(pathname)}", not /mcp`);
  return search || hash || username || password ? new Invalid('it has a query, a fragment or credentials') : text;
};
/** The MCP Registry's HTTP proof: `v=MCPv1; k=<algorithm>; p=<base64 public key>`, as `mcp-publisher` prints it. */
const proofLine: Parse<string | undefined> = (value) => (/^v=MCPv1;\s?k=(?:ed25519|ecdsap384);\s?p=[A-Za-z0-9+/]{16,200}={0,2}$/.test(value) ? value : INVALID);
/** A Cloudflare Access team domain, `acme.cloudflareaccess.com` or as a URL (http only on loopback), without a trailing slash. */
const teamDomain: Parse<string | undefined> = (text) => {
  const withScheme = text.includes('://') ? text : `https://${text}`;
  return isUrl(withScheme) && !/[?#]/.test(withScheme) ? withScheme.replace(/\/+$/, '') : INVALID;
};
/** Text used exactly as set: whitespace around it would never match, so it is refused. */
const trimmed: Parse<string | undefined> = (value) => (value.trim() === value ? value : new Invalid('it has whitespace around it'));
const matching =
  (pattern: RegExp): Parse<string | undefined> =>
  (value) =>
    pattern.test(value) ? value : INVALID;
/** A secret too is used exactly as set: one with surrounding whitespace would never match. */
const secret = trimmed;

const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

export const SETTINGS = {
  ALLOWED_ORIGINS: setting({
    default: [],
    accepts: 'origins such as `https://app.example.com`, `https://*.example.com`, `http://localhost:*`, or `*`',
    parse: listOf(ORIGIN, 'an origin'),
  }),
  ALLOWED_HOSTS: setting({
    default: [],
    accepts: 'host names such as `mcp.example.com`, `*.example.com`, `localhost:*`',
    parse: listOf((item) => HOST.test(item), 'a host name'),
  }),
  LEGACY_CLIENTS: setting({
    default: 'on',
    accepts: '`on` or `off`',
    parse: oneOf('on', 'off'),
  }),
  MAX_BODY_BYTES: setting({
    default: 4 * 1024 * 1024,
    accepts: 'a whole number of bytes from 1024 to 104857600',
    parse: integer(1024, 100 * 1024 * 1024),
  }),
  LISTEN_MAX_SECONDS: setting({
    default: 600,
    accepts: 'a whole number of seconds from 1 to 86400',
    parse: integer(1, 86_400),
  }),
  LISTEN_MAX_STREAMS: setting({
    default: 100,
    accepts: 'a whole number from 1 to 10000',
    parse: integer(1, 10_000),
  }),
  REQUEST_LOGS: setting({
    default: 'errors',
    accepts: '`on`, `errors` or `off`',
    parse: oneOf('on', 'errors', 'off'),
  }),
  AI_CATALOG: setting({
    default: 'on',
    accepts: '`on` or `off`',
    parse: oneOf('on', 'off'),
  }),
  PUBLIC_URL: setting({
    default: undefined,
    accepts: 'an https URL (http only on loopback) whose path is `/mcp`',
    parse: endpointUrl,
  }),
  MCP_REGISTRY_AUTH: setting({
    default: undefined,
    accepts: 'the proof line of `mcp-publisher login http`: `v=MCPv1; k=ed25519; p=<base64 public key>` (or `k=ecdsap384`)',
    parse: proofLine,
  }),
  AUTH_MODE: setting({
    default: 'none',
    accepts: '`none`, `bearer`, `jwt`, `access`, `introspect` or `signin`',
    parse: oneOf('none', 'bearer', 'jwt', 'access', 'introspect', 'signin'),
  }),
  AUTH_ISSUER: setting({
    default: undefined,
    accepts: 'an https URL (http only on loopback)',
    parse: url,
  }),
  AUTH_RESOURCE: setting({
    default: undefined,
    accepts: 'an https URL (http only on loopback)',
    parse: url,
  }),
  AUTH_JWKS_URL: setting({
    default: undefined,
    accepts: 'an https URL (http only on loopback)',
    parse: url,
  }),
  AUTH_JWKS_TIMEOUT_MS: setting({
    default: 3000,
    accepts: 'a whole number of milliseconds from 1 to 30000',
    parse: integer(1, 30_000),
  }),
  AUTH_SERVERS: setting({
    default: [],
    accepts: 'https URLs',
    parse: listOf(isUrl, 'an https URL'),
  }),
  AUTH_SCOPES: setting({
    default: [],
    accepts: 'scope names',
    parse: listOf((item) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(item), 'a scope (RFC 6749 3.3)'),
  }),
  AUTH_INTROSPECTION_URL: setting({
    default: undefined,
    accepts: 'an https URL (http only on loopback)',
    parse: url,
  }),
  AUTH_INTROSPECTION_CLIENT_ID: setting({
    default: undefined,
    accepts: 'the client id the authorization server gave this server, with no whitespace around it',
    parse: trimmed,
  }),
  AUTH_INTROSPECTION_CLIENT_SECRET: setting({
    default: undefined,
    accepts: 'the client secret, with no whitespace around it',
    parse: secret,
    secret: true,
  }),
  AUTH_INTROSPECTION_CACHE_SECONDS: setting({
    default: 60,
    accepts: 'a whole number of seconds from 0 to 3600',
    parse: integer(0, 3600),
  }),
  AUTH_INTROSPECTION_TIMEOUT_MS: setting({
    default: 3000,
    accepts: 'a whole number of milliseconds from 1 to 30000',
    parse: integer(1, 30_000),
  }),
  ACCESS_TEAM_DOMAIN: setting({
    default: undefined,
    accepts: 'a team domain such as `acme.cloudflareaccess.com` or `https://acme.cloudflareaccess.com`',
    parse: teamDomain,
  }),
  ACCESS_AUD: setting({
    default: [],
    accepts: 'the Application Audience (AUD) tag of the Access application, or several',
    parse: listOf((item) => /^[A-Za-z0-9_-]{8,256}$/.test(item), 'an AUD tag'),
  }),
  ACCESS_SCOPES_CLAIM: setting({
    default: undefined,
    accepts: 'the name of one claim, e.g. `groups`',
    parse: matching(/^[A-Za-z0-9_.:-]{1,64}$/),
  }),
  LOGIN_PROVIDER: setting<'github' | 'oidc' | undefined>({
    default: undefined,
    accepts: '`github` or `oidc`',
    parse: oneOf('github', 'oidc'),
  }),
  LOGIN_ISSUER: setting({
    default: undefined,
    accepts: 'an https URL (http only on loopback)',
    parse: url,
  }),
  LOGIN_CLIENT_ID: setting<string | undefined>({
    default: undefined,
    accepts: 'the client ID the provider gave this app (no whitespace)',
    parse: (value) => (/^[\x21-\x7e]{1,256}$/.test(value) ? value : INVALID),
  }),
  LOGIN_GITHUB_URL: setting({
    default: 'https://github.com',
    accepts: 'an https URL (http only on loopback)',
    parse: url,
  }),
  LOGIN_GITHUB_API_URL: setting({
    default: 'https://api.github.com',
    accepts: 'an https URL (http only on loopback)',
    parse: url,
  }),
  LOGIN_CLIENT_SECRET: setting({
    default: undefined,
    accepts: 'the client secret the provider gave this app, with no whitespace around it',
    parse: secret,
    secret: true,
  }),
  MCP_BEARER_TOKEN: setting({
    default: undefined,
    accepts: 'the token, with no whitespace around it',
    parse: secret,
    secret: true,
  }),
  MCP_STATE_SECRET: setting({
    default: undefined,
    accepts: 'a key, e.g. `openssl rand -base64 32`, with no whitespace around it',
    parse: secret,
    secret: true,
  }),
};

export type SettingName = keyof typeof SETTINGS;
/** Each setting's parsed value, by its name. */
export type SettingValues = { [K in SettingName]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never };

/**
 * A setting that cannot be read: the Worker refuses to serve and says which, and what it
 * accepts. `detail` (the value, never a secret's) is for the log only, not for clients.
 */
export class SettingError {
  readonly setting: string;
  readonly why: string;
  readonly detail: string | undefined;
  // (no parameter properties: the scripts run this file with Node's type stripping, which has none)
  constructor(setting: string, why: string, detail?: string) {
    this.setting = setting;
    this.why = why;
    this.detail = detail;
  }
  get message(): string {
    return `${this.setting} ${this.why}${this.detail ? ` (${this.detail})` : ''}`;
  }
}

/**
 * Parses every setting of `env` by the table, then the rules between settings. An unset or
 * empty var takes its default. The first setting that cannot be read is returned as an error.
 */
export function parseSettingValues(env: Readonly<Record<string, unknown>>): SettingValues | SettingError {
  const values: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(SETTINGS) as [SettingName, Setting<unknown>][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      values[name] = setting.default;
      continue;
    }
    const parsed = typeof raw === 'string' ? setting.parse(raw) : new Invalid('it is not text');
    if (parsed instanceof Invalid) {
      const detail = setting.secret ? parsed.why : (parsed.why ?? `it is "${clip(String(raw))}"`);
      return new SettingError(name, `must be ${setting.accepts}`, detail);
    }
    values[name] = parsed;
  }
  // A misspelt authorization setting must not leave a door open: AUTH_* names are all known.
  for (const prefix of ['AUTH_', 'LOGIN_']) {
    const unknown = Object.keys(env).find((name) => name.startsWith(prefix) && !Object.hasOwn(SETTINGS, name));
    if (unknown) return new SettingError(unknown, `is not a setting; the ${prefix} settings are ${names(prefix)}`);
  }
  return crossCheck(values as SettingValues);
}

/** The rules between settings: what an authorization mode needs. */
function crossCheck(values: SettingValues): SettingValues | SettingError {
  if (values.AUTH_MODE === 'jwt') {
    if (!values.AUTH_ISSUER) return new SettingError('AUTH_ISSUER', 'is required with AUTH_MODE = "jwt": the issuer of the access tokens, an https URL');
    if (!values.AUTH_RESOURCE) {
      return new SettingError('AUTH_RESOURCE', 'is required with AUTH_MODE = "jwt": this server\'s resource identifier (the tokens\' audience), e.g. https://mcp.example.com/mcp');
    }
  }
  if (values.AUTH_MODE === 'access') {
    if (!values.ACCESS_TEAM_DOMAIN) return new SettingError('ACCESS_TEAM_DOMAIN', 'is required with AUTH_MODE = "access": your Zero Trust team domain, e.g. acme.cloudflareaccess.com');
    if (values.ACCESS_AUD.length === 0) return new SettingError('ACCESS_AUD', 'is required with AUTH_MODE = "access": the Application Audience (AUD) tag of the Access application');
  }
  if (values.AUTH_MODE === 'introspect') {
    if (!values.AUTH_INTROSPECTION_URL) return new SettingError('AUTH_INTROSPECTION_URL', 'is required with AUTH_MODE = "introspect": the RFC 7662 introspection endpoint, an https URL');
    if (!values.AUTH_INTROSPECTION_CLIENT_ID) return new SettingError('AUTH_INTROSPECTION_CLIENT_ID', 'is required with AUTH_MODE = "introspect": the client id this server introspects with');
    if (!values.AUTH_INTROSPECTION_CLIENT_SECRET) {
      return new SettingError('AUTH_INTROSPECTION_CLIENT_SECRET', 'is required with AUTH_MODE = "introspect" (`wrangler secret put AUTH_INTROSPECTION_CLIENT_SECRET`)');
    }
    if (!values.AUTH_RESOURCE) {
      return new SettingError('AUTH_RESOURCE', 'is required with AUTH_MODE = "introspect": this server\'s resource identifier (the tokens\' audience), e.g. https://mcp.example.com/mcp');
    }
  }
  if (values.AUTH_MODE === 'bearer' && !values.MCP_BEARER_TOKEN) {
    return new SettingError('MCP_BEARER_TOKEN', 'is required with AUTH_MODE = "bearer" (`wrangler secret put MCP_BEARER_TOKEN`)');
  }
  // What else the sign-in mode needs (LOGIN_*) is checked by its own entry (`loginSettings` below), so other bundles do not carry it.
  if (values.AUTH_MODE === 'signin') {
    return values.AUTH_RESOURCE ? values : new SettingError('AUTH_RESOURCE', 'is required with AUTH_MODE = "signin" (docs/sign-in.md): this server\'s resource identifier; its origin is the issuer');
  }
  return loginUnused(values);
}

/**
 * What the sign-in mode needs beyond AUTH_RESOURCE (docs/sign-in.md, "Settings"): the upstream
 * provider and the Worker's app there. Not one of `crossCheck`'s rules, so that only the sign-in
 * entry, which calls it (src/signin), carries it: the router refuses to serve with what it returns
 * (500 naming the setting), and `npm run check` runs it on a wrangler.toml with AUTH_MODE = "signin".
 */
/** The upstream provider users sign in with, and the secrets of the mode. */
export type LoginSettings = (
  | { provider: 'github'; clientId: string; clientSecret: string; githubUrl: string; githubApiUrl: string }
  | { provider: 'oidc'; clientId: string; clientSecret: string; issuer: string }
) & {
  /** MCP_STATE_SECRET, from which the key of remembered consent is derived. */
  stateSecret: string;
};

const NEED = 'is required with AUTH_MODE = "signin" (docs/sign-in.md)';

/** The LOGIN_* settings of `values`, or the error naming the one missing or out of place. */
export function loginSettings(values: SettingValues): LoginSettings | SettingError {
  // The Worker issues its own tokens: an issuer or key set of another server would be a second truth.
  for (const name of ['AUTH_ISSUER', 'AUTH_JWKS_URL', 'AUTH_SERVERS'] as const) {
    if (values[name] !== SETTINGS[name].default) return new SettingError(name, 'is not used with AUTH_MODE = "signin": the Worker is its own issuer, the origin of AUTH_RESOURCE');
  }
  const { LOGIN_PROVIDER: provider, LOGIN_CLIENT_ID: clientId, LOGIN_CLIENT_SECRET: clientSecret, MCP_STATE_SECRET: stateSecret, LOGIN_ISSUER: issuer } = values;
  if (!provider) return new SettingError('LOGIN_PROVIDER', `${NEED}: \`github\` or \`oidc\``);
  if (provider === 'oidc' && !issuer) return new SettingError('LOGIN_ISSUER', 'is required with LOGIN_PROVIDER = "oidc": the provider\'s issuer, where /.well-known/openid-configuration is');
  if (provider === 'github' && issuer) return new SettingError('LOGIN_ISSUER', 'is for LOGIN_PROVIDER = "oidc" only; GitHub\'s endpoints are LOGIN_GITHUB_URL and LOGIN_GITHUB_API_URL');
  if (!clientId) return new SettingError('LOGIN_CLIENT_ID', `${NEED}: the client ID of the app registered with the provider`);
  if (!clientSecret) return new SettingError('LOGIN_CLIENT_SECRET', `${NEED} (\`wrangler secret put LOGIN_CLIENT_SECRET\`)`);
  // Remembered consent is signed with a key derived from it: a random per-isolate key would forget it at random.
  if (!stateSecret) return new SettingError('MCP_STATE_SECRET', `${NEED}: remembered consent is signed with a key derived from it`);
  if (provider === 'oidc') return { provider, clientId, clientSecret, issuer: issuer!, stateSecret };
  return { provider, clientId, clientSecret, githubUrl: withoutTrailingSlash(values.LOGIN_GITHUB_URL), githubApiUrl: withoutTrailingSlash(values.LOGIN_GITHUB_API_URL), stateSecret };
}

/** A base URL without its trailing slashes, so paths are appended to it as they are. */
const withoutTrailingSlash = (url: string | undefined) => (url ?? '').replace(/\/+$/, '');

/** A LOGIN_ var without sign-in would be silently ignored: say so instead. (A secret left set is harmless.) */
function loginUnused(values: SettingValues): SettingValues | SettingError {
  const set = (Object.keys(SETTINGS) as SettingName[]).find((name) => name.startsWith('LOGIN_') && !SETTINGS[name].secret && values[name] !== SETTINGS[name].default);
  return set ? new SettingError(set, 'is set, but AUTH_MODE is not "signin" (docs/sign-in.md)') : values;
}

const names = (prefix: string) =>
  Object.keys(SETTINGS)
    .filter((name) => name.startsWith(prefix))
    .join(', ');

/** The period of the `[[ratelimits]]` bindings in wrangler.toml, for `Retry-After`: `npm run check` holds them equal. */
export const RATE_LIMIT_PERIOD_SECONDS = 60;
