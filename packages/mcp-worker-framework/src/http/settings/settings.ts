/**
 * The deployment's settings, read from the Worker's vars and secrets by the core's table
 * (`./settingsTable.ts`) and the rows of the auth modes the entry includes, once per isolate and
 * again only when the values change. The `auth` list decides the mode (one listed is served; among
 * several AUTH_MODE chooses), and its parser makes its config. A value that
 * cannot be read is a `SettingError`: the router then answers every request with it (500,
 * naming the setting), so a typo never serves the endpoint open (docs/production.md).
 */
import { type AuthConfig, type AuthModeBase as AuthMode, credentialHeader } from '../auth/authMode.js';
import { clip, parseRows, SETTINGS, SettingError, type SettingRows, type SettingValues } from './settingsTable.js';
import type { WorkerEnv } from '../../mcp/internal.js';

export { SettingError } from './settingsTable.js';

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
  /** The config of the mode AUTH_MODE names (its parser's), or of "none". */
  auth: AuthConfig;
  /** The mode AUTH_MODE names; undefined for "none". */
  authMode: AuthMode | undefined;
  /** The header the mode's credential arrives in (`credentialHeader`): what an answer that depends on the caller varies on. */
  credentialHeader: string;
  /** AI_CATALOG: serve `/.well-known/ai-catalog.json` (discovery.ts). */
  aiCatalog: boolean;
  /** MCP_REGISTRY_AUTH: the proof line served at `/.well-known/mcp-registry-auth` (registryAuth.ts). */
  registryAuth: string | undefined;
  /** REQUEST_LOGS: "on" writes one line per request, "errors" only for errors and refusals, "off" none. */
  requestLogs: SettingValues['REQUEST_LOGS'];
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
function isolateSecret(): string {
  if (randomSecret === undefined) {
    randomSecret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    console.warn(
      'MCP_STATE_SECRET is not set: requestState is sealed with a random key of this isolate, so a multi round-trip request ' +
        'whose retry reaches another isolate must start again. Set it (`wrangler secret put MCP_STATE_SECRET`) before deploying.',
    );
  }
  return randomSecret;
}

/**
 * The mode served, decided by the `auth` list of src/index.ts: the one mode it lists, with
 * AUTH_MODE unset; among several, the one AUTH_MODE names (an explicit choice, never a default);
 * with none listed, none. AUTH_MODE = "none" always serves without auth (a test, or a deployment
 * that turns auth off on purpose; `npm run check` refuses it beside one listed mode). Any other
 * value is refused naming the values this Worker accepts; the value itself goes to the log only,
 * as every setting's does. What it most likely means (a misspelling, a mode the package ships that
 * src/index.ts does not list) is said by `npm run check` (scripts/checkDeployment.mjs), before deploy.
 */
function chosenMode(value: unknown, modes: readonly AuthMode[]): AuthMode | undefined | SettingError {
  const must =
    modes.length === 0
      ? 'must be "none" or unset: src/index.ts lists no mode in `auth: [...]`'
      : `must be ${modes.map((one) => `"${one.name}"`).join(', ')} or "none": the ${modes.length === 1 ? 'mode' : 'modes'} src/index.ts lists in \`auth\`, or none`;
  if (value === undefined || value === '') {
    if (modes.length <= 1) return modes[0];
    return new SettingError(
      'AUTH_MODE',
      `${must}; with several listed it must say which to serve (docs/production.md)`,
    );
  }
  if (typeof value !== 'string') return new SettingError('AUTH_MODE', must, 'it is not text');
  if (value === 'none') return undefined;
  return modes.find((one) => one.name === value) ?? new SettingError('AUTH_MODE', must, `it is "${clip(value)}"`);
}

/** AUTH_MODE = "none": no credential, so nothing to advertise. */
const NONE = (scopesSupported: readonly string[]): AuthConfig => ({
  mode: 'none',
  scopesSupported,
  authorizationServers: [],
});

/** The table of a Worker with `modes`: the core's rows, then each mode's (a row two modes share is one). */
export const tableOf = (modes: readonly AuthMode[]): SettingRows =>
  Object.assign({}, SETTINGS, ...modes.map((mode) => mode.settings));

/** The settings of `env` for a Worker with `modes`, or the error that names the one that cannot be read. */
export function readSettings(
  env: Readonly<Record<string, unknown>>,
  modes: readonly AuthMode[],
  table = tableOf(modes),
): Settings | SettingError {
  // First the mode: one the entry did not list is refused as such, before its settings are found unknown.
  const mode = chosenMode(env.AUTH_MODE, modes);
  if (mode instanceof SettingError) return mode;
  const values = parseRows(table, env);
  if (values instanceof SettingError) return values;
  // A mode's own setting set while another mode is on would be ignored: it refuses it (sign-in's LOGIN_*).
  for (const other of modes) {
    const stray = other === mode ? undefined : other.unused?.(values);
    if (stray) return stray;
  }
  const auth = mode
    ? mode.parse(values as Parameters<AuthMode['parse']>[0])
    : NONE((values as SettingValues).AUTH_SCOPES);
  return auth instanceof SettingError ? auth : settingsOf(values as SettingValues, auth, mode);
}

/** The settings of `env`, read once per isolate and again when a value changes (`readSettings`; an error is logged once). */
export function settingsReader(modes: readonly AuthMode[]): (env: WorkerEnv) => Settings | SettingError {
  const table = tableOf(modes);
  const names = Object.keys(table);
  let cached: { env: WorkerEnv; key: string; settings: Settings | SettingError } | undefined;
  return function settingsFor(env) {
    // The runtime hands every request of an isolate the same env object: one comparison.
    if (cached?.env === env) return cached.settings;
    // Read by name: workerd's env holds its vars and bindings as properties a spread does not copy.
    const vars = Object.fromEntries(names.map((name) => [name, Reflect.get(env, name)]));
    const key = names.map((name) => vars[name]).join('\n');
    if (cached?.key !== key) {
      const settings = readSettings(vars, modes, table);
      if (settings instanceof SettingError) console.error(`refusing to serve: the setting ${settings.message}`);
      cached = { env, key, settings };
    } else cached.env = env;
    return cached.settings;
  };
}

function settingsOf(values: SettingValues, auth: AuthConfig, authMode: AuthMode | undefined): Settings {
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
    auth,
    authMode,
    credentialHeader: credentialHeader(authMode),
    requestLogs: values.REQUEST_LOGS,
  };
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
