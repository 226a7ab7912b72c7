/**
 * The core's settings, each declared once: its name, what it accepts, its value when unset, and
 * its parser; with the parsers and the rows several auth modes share, which each mode's module
 * (src/auth/, src/signin/signIn.ts) lists beside its own. The table a Worker reads is the core's
 * rows plus those of the modes its entry includes (`./settings.ts`); the README's table, every
 * shipped mode's (`scripts/settings.mjs`, with the lines of `./settingsDocs.ts`); the settings
 * of `FrameworkEnv` (`src/env.ts`) are derived from them too.
 *
 * A value that does not parse is never read as "off": the Worker refuses to serve, naming the
 * setting and what it accepts. To add a core setting: a row here and its line in
 * `./settingsDocs.ts` (tsc fails until it has one), its value in `wrangler.toml` if it has one
 * there, then `npm run settings` (the README table) and `npm run cf-typegen`.
 *
 * This module imports nothing.
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

/*
 * The row and parser makers below are marked free of side effects (esbuild's
 * `@__NO_SIDE_EFFECTS__`), so a table no code reads is dropped from the bundle: a Worker that lists
 * no auth mode carries none of the rows the modes share (`SHARED_AUTH_SETTINGS`).
 */

/** A row of the table, typed by its parser. */
/* @__NO_SIDE_EFFECTS__ */
export const setting = <T>(row: Setting<T>): Setting<T> => row;

/* @__NO_SIDE_EFFECTS__ */
export const oneOf =
  <const T extends string>(...values: T[]): Parse<T> =>
  (text) =>
    (values as string[]).includes(text) ? (text as T) : INVALID;

/** A decimal integer from `min` to `max`: no sign, exponent, hex or fraction. */
/* @__NO_SIDE_EFFECTS__ */
export const integer =
  (min: number, max: number): Parse<number> =>
  (text) => {
    if (!/^\d{1,16}$/.test(text)) return INVALID;
    const value = Number(text);
    return value >= min && value <= max ? value : INVALID;
  };

/** Comma- or space-separated entries, each checked by `entry`. */
/* @__NO_SIDE_EFFECTS__ */
export const listOf =
  (entry: (item: string) => boolean, what: string): Parse<readonly string[]> =>
  (text) => {
    const items = text.split(/[\s,]+/).filter(Boolean);
    const bad = items.find((item) => !entry(item));
    return bad === undefined ? items : new Invalid(`"${clip(bad)}" is not ${what}`);
  };

// Origins and hosts with the wildcards `wildcardPattern` understands: `*.` before a host, `:*` for any port.
const HOST = /^(?:\*\.)?(?:[a-z0-9-]+\.)*[a-z0-9-]+(?::(?:\d{1,5}|\*))?$|^\[[0-9a-f:.]+\](?::(?:\d{1,5}|\*))?$/i;
const ORIGIN = (item: string) =>
  item === '*' ||
  (/^https?:\/\/[^/]+\/?$/i.test(item) && HOST.test(item.replace(/^https?:\/\//i, '').replace(/\/$/, '')));

/** An absolute `https:` URL, or `http:` on loopback (local development and tests). */
function isUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);
}

export const url: Parse<string | undefined> = (text) => (isUrl(text) ? text : INVALID);

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
const proofLine: Parse<string | undefined> = (value) =>
  /^v=MCPv1;\s?k=(?:ed25519|ecdsap384);\s?p=[A-Za-z0-9+/]{16,200}={0,2}$/.test(value) ? value : INVALID;
/** A Cloudflare Access team domain, `acme.cloudflareaccess.com` or as a URL (http only on loopback), without a trailing slash. */
export const teamDomain: Parse<string | undefined> = (text) => {
  const withScheme = text.includes('://') ? text : `https://${text}`;
  return isUrl(withScheme) && !/[?#]/.test(withScheme) ? withScheme.replace(/\/+$/, '') : INVALID;
};
/** Text used exactly as set: whitespace around it would never match, so it is refused. */
export const trimmed: Parse<string | undefined> = (value) =>
  value.trim() === value ? value : new Invalid('it has whitespace around it');
/* @__NO_SIDE_EFFECTS__ */
export const matching =
  (pattern: RegExp): Parse<string | undefined> =>
  (value) =>
    pattern.test(value) ? value : INVALID;
/** A secret too is used exactly as set: one with surrounding whitespace would never match. */
export const secret = trimmed;

export const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

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
    accepts:
      'the proof line of `mcp-publisher login http`: `v=MCPv1; k=ed25519; p=<base64 public key>` (or `k=ecdsap384`)',
    parse: proofLine,
  }),
  AUTH_MODE: setting({
    default: 'none',
    accepts: '`none`, or the name of a mode `src/index.ts` lists in `auth` (unset: the one it lists, or none)',
    parse: matching(/^[a-z][a-z0-9-]{0,31}$/),
  }),
  AUTH_SCOPES: setting({
    default: [],
    accepts: 'scope names',
    parse: listOf((item) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(item), 'a scope (RFC 6749 3.3)'),
  }),
  MCP_STATE_SECRET: setting({
    default: undefined,
    accepts: 'a key, e.g. `openssl rand -base64 32`, with no whitespace around it',
    parse: secret,
    secret: true,
  }),
};

/** The rows several auth modes read: each mode lists those it reads beside its own (one object, one row). */
export const SHARED_AUTH_SETTINGS = {
  AUTH_ISSUER: setting({ default: undefined, accepts: 'an https URL (http only on loopback)', parse: url }),
  AUTH_RESOURCE: setting({ default: undefined, accepts: 'an https URL (http only on loopback)', parse: url }),
  AUTH_JWKS_TIMEOUT_MS: setting({
    default: 3000,
    accepts: 'a whole number of milliseconds from 1 to 30000',
    parse: integer(1, 30_000),
  }),
  AUTH_SERVERS: setting({ default: [], accepts: 'https URLs', parse: listOf(isUrl, 'an https URL') }),
};

/** What the README's settings table says of a setting: what it does, and, where its default needs words, how to show it. */
export interface SettingDoc {
  doc: string;
  /** Shown in the Default column instead of the default value. */
  shownDefault?: string;
}
/** The README's line of each of a mode's own rows (the shared rows' are in `./settingsDocs.ts`): tsc fails on a row without one. */
export type SettingDocs<R> = { readonly [K in Exclude<keyof R, keyof typeof SHARED_AUTH_SETTINGS>]: SettingDoc };

/** Rows of a settings table, by setting name. */
// biome-ignore lint/suspicious/noExplicitAny: a table holds rows of every value type
export type SettingRows = Readonly<Record<string, Setting<any>>>;
/** The parsed value of each row of `R`. */
export type ValuesOf<R> = { readonly [K in keyof R]: R[K] extends Setting<infer T> ? T : never };
export type SettingName = keyof typeof SETTINGS | keyof typeof SHARED_AUTH_SETTINGS;
/** The core's parsed values, by name. */
export type SettingValues = ValuesOf<typeof SETTINGS>;

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

/** "is required with AUTH_MODE = …": what a mode's parser says of a setting it needs and does not have. */
export const required = (setting: string, mode: string, what: string) =>
  new SettingError(setting, `is required with AUTH_MODE = "${mode}"${what}`);

/**
 * Parses every row of `rows` from `env`: an unset or empty var takes its default; the first that
 * cannot be read is returned as an error. An AUTH_ or LOGIN_ var that is no row is one too: a
 * misspelt authorization setting must not leave a door open.
 */
export function parseRows(
  rows: SettingRows,
  env: Readonly<Record<string, unknown>>,
): Record<string, unknown> | SettingError {
  const values: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(rows)) {
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
  for (const prefix of ['AUTH_', 'LOGIN_']) {
    // Empty is unset, as for every row: a wrangler.toml may keep `AUTH_ISSUER = ""` after its mode left `auth`.
    const unknown = Object.keys(env).find(
      (name) => name.startsWith(prefix) && env[name] !== undefined && env[name] !== '' && !Object.hasOwn(rows, name),
    );
    const known = Object.keys(rows).filter((name) => name.startsWith(prefix));
    if (unknown)
      return new SettingError(
        unknown,
        `is not a setting of this Worker; its ${prefix} settings are ${known.join(', ') || 'none'}`,
      );
  }
  return values;
}

/** The period of the `[[ratelimits]]` bindings in wrangler.toml, for `Retry-After`: `npm run check` holds them equal. */
export const RATE_LIMIT_PERIOD_SECONDS = 60;
