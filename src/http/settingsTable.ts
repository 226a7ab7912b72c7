/**
 * Every setting the Worker reads from its vars and secrets, declared once: its name, what it
 * accepts, its value when unset, its parser, and the line the README's settings table shows.
 * The rest is derived from this table: the `Settings` record and its parser
 * (`./settings.ts`), the key that tells when the values changed, the optional part of `Env`
 * (`src/env.d.ts`), the README's table, and `npm run check`, which parses the `[vars]` of every
 * `wrangler*.toml` with these same parsers (`scripts/settings.mjs`).
 *
 * A value that does not parse is never read as "off": the Worker refuses to serve, naming the
 * setting and what it accepts (`./settings.ts`). To add a setting: a row here, its value in
 * `wrangler.toml` if it has one there, then `npm run settings` (the README table) and
 * `npm run cf-typegen`.
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
  /** The README's line for it: what it does. */
  doc: string;
  parse: Parse<T>;
  /** A secret (`.dev.vars`, `wrangler secret put`): never in `wrangler.toml`, never echoed. */
  secret?: true;
  /** Shown in the README's Default column instead of the default value. */
  shownDefault?: string;
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
const text: Parse<string | undefined> = (value) => value;
/** A secret is used exactly as set: one with surrounding whitespace would never match, so it is refused. */
const secret: Parse<string | undefined> = (value) => (value.trim() === value ? value : new Invalid('it has whitespace around it'));

const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

export const SETTINGS = {
  ALLOWED_ORIGINS: setting({
    default: [],
    shownDefault: 'empty: none (`wrangler.toml`: `http://localhost:*, http://127.0.0.1:*`)',
    accepts: 'origins such as `https://app.example.com`, `https://*.example.com`, `http://localhost:*`, or `*`',
    doc: 'Browser origins allowed to call `/mcp` (403 otherwise). `https://*.example.com`: any subdomain; `http://localhost:*`: any port; `*` alone: any origin. Requests without `Origin` (non-browser clients) always pass.',
    parse: listOf(ORIGIN, 'an origin'),
  }),
  ALLOWED_HOSTS: setting({
    default: [],
    shownDefault: 'empty: any',
    accepts: 'host names such as `mcp.example.com`, `*.example.com`, `localhost:*`',
    doc: '`Host` names the endpoint answers to, e.g. `localhost:*, 127.0.0.1:*` to guard a local server against DNS rebinding.',
    parse: listOf((item) => HOST.test(item), 'a host name'),
  }),
  LEGACY_CLIENTS: setting({
    default: 'on',
    accepts: '`on` or `off`',
    doc: 'Also serve clients that open with `initialize` (protocol 2025-11-25 and earlier); `off` serves 2026-07-28 only.',
    parse: oneOf('on', 'off'),
  }),
  MAX_BODY_BYTES: setting({
    default: 4 * 1024 * 1024,
    shownDefault: '`4194304` (4 MiB)',
    accepts: 'a whole number of bytes from 1024 to 104857600',
    doc: 'Largest request body (413 above).',
    parse: integer(1024, 100 * 1024 * 1024),
  }),
  LISTEN_MAX_SECONDS: setting({
    default: 600,
    accepts: 'a whole number of seconds from 1 to 86400',
    doc: 'How long a `subscriptions/listen` stream stays open before the server ends it.',
    parse: integer(1, 86_400),
  }),
  LISTEN_MAX_STREAMS: setting({
    default: 100,
    accepts: 'a whole number from 1 to 10000',
    doc: 'How many `subscriptions/listen` streams one isolate keeps open at once; one client (its principal, else its address) holds at most a quarter of them.',
    parse: integer(1, 10_000),
  }),
  REQUEST_LOGS: setting({
    default: 'errors',
    accepts: '`on`, `errors` or `off`',
    doc: 'One JSON log line per request answered with an error or a refusal (`on`: every request; `off`: none), when its answer has ended (status, JSON-RPC error code, duration, method, tool, client, trace), never tokens or arguments ([docs/observability.md](docs/observability.md)).',
    parse: oneOf('on', 'errors', 'off'),
  }),
  AUTH_MODE: setting({
    default: 'none',
    accepts: '`none`, `bearer` or `jwt`',
    doc: '`none`; `bearer`: the one secret `MCP_BEARER_TOKEN`; `jwt`: OAuth access tokens from `AUTH_ISSUER` for `AUTH_RESOURCE` ([docs/production.md](docs/production.md)).',
    parse: oneOf('none', 'bearer', 'jwt'),
  }),
  AUTH_ISSUER: setting({
    default: undefined,
    shownDefault: 'empty',
    accepts: 'an https URL (http only on loopback)',
    doc: 'For `jwt` (required): the `iss` every token carries.',
    parse: url,
  }),
  AUTH_RESOURCE: setting({
    default: undefined,
    shownDefault: 'empty',
    accepts: 'an https URL (http only on loopback)',
    doc: 'For `jwt` (required): this server\'s resource identifier, the `aud` tokens must name and the `resource` of its RFC 9728 metadata, e.g. `https://mcp.example.com/mcp`. Never taken from the request.',
    parse: url,
  }),
  AUTH_JWKS_URL: setting({
    default: undefined,
    shownDefault: '`<issuer>/.well-known/jwks.json`',
    accepts: 'an https URL (http only on loopback)',
    doc: 'For `jwt`: where the issuer\'s signing keys are.',
    parse: url,
  }),
  AUTH_JWKS_TIMEOUT_MS: setting({
    default: 3000,
    accepts: 'a whole number of milliseconds from 1 to 30000',
    doc: 'For `jwt`: how long a fetch of the issuer\'s keys may take; past it, a request whose keys are not cached is answered 503 with `Retry-After` ([docs/reliability.md](docs/reliability.md)).',
    parse: integer(1, 30_000),
  }),
  AUTH_SERVERS: setting({
    default: [],
    shownDefault: 'the issuer',
    accepts: 'https URLs',
    doc: 'For `jwt`: the authorization servers the metadata advertises.',
    parse: listOf(isUrl, 'an https URL'),
  }),
  AUTH_SCOPES: setting({
    default: [],
    shownDefault: 'empty',
    accepts: 'scope names',
    doc: 'The scopes the metadata advertises, and the 401 challenge asks for.',
    parse: listOf((item) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(item), 'a scope (RFC 6749 3.3)'),
  }),
  MCP_BEARER_TOKEN: setting({
    default: undefined,
    shownDefault: 'unset',
    accepts: 'the token, with no whitespace around it',
    doc: 'Secret, for `bearer` (required): the one token clients send.',
    parse: secret,
    secret: true,
  }),
  MCP_STATE_SECRET: setting({
    default: undefined,
    shownDefault: 'a random key per isolate (logged as a warning)',
    accepts: 'a key, e.g. `openssl rand -base64 32`, with no whitespace around it',
    doc: 'Secret: seals what a tool carries between the rounds of a request that asks the user something; set it so every isolate opens what another sealed. Task tools need it: task ids are signed with it.',
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
  const unknown = Object.keys(env).find((name) => name.startsWith('AUTH_') && !Object.hasOwn(SETTINGS, name));
  if (unknown) return new SettingError(unknown, `is not a setting; the AUTH_ settings are ${names('AUTH_')}`);
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
  if (values.AUTH_MODE === 'bearer' && !values.MCP_BEARER_TOKEN) {
    return new SettingError('MCP_BEARER_TOKEN', 'is required with AUTH_MODE = "bearer" (`wrangler secret put MCP_BEARER_TOKEN`)');
  }
  return values;
}

const names = (prefix: string) =>
  Object.keys(SETTINGS)
    .filter((name) => name.startsWith(prefix))
    .join(', ');

/** The period of the `[[ratelimits]]` bindings in wrangler.toml, for `Retry-After`: `npm run check` holds them equal. */
export const RATE_LIMIT_PERIOD_SECONDS = 60;
