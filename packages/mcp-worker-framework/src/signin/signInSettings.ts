/**
 * The sign-in mode's settings (docs/sign-in.md, "Settings"): its rows of the settings table and
 * the parser that makes its config of them, the upstream provider and the Worker's app there
 * included, or names the setting missing or out of place. Its issuer is the origin of
 * AUTH_RESOURCE: both come from configuration, never from the request's Host.
 */
import { resourceMetadataUrl } from '../http/auth/auth.js';
import type { AuthModeBase } from '../http/auth/authMode.js';
import {
  matching,
  oneOf,
  required,
  secret,
  SettingError,
  SHARED_AUTH_SETTINGS,
  url,
  type SettingDocs,
  type SettingRows,
  type ValuesOf,
} from '../http/settings/settingsTable.js';

/** The upstream provider users sign in with, and the secrets of the mode. */
export type LoginSettings = (
  | { provider: 'github'; clientId: string; clientSecret: string; githubUrl: string; githubApiUrl: string }
  | { provider: 'oidc'; clientId: string; clientSecret: string; issuer: string }
) & {
  /** MCP_STATE_SECRET, from which the key of remembered consent is derived. */
  stateSecret: string;
};

/** AUTH_MODE = "signin": the Worker is its own OAuth authorization server and signs users in through `login`. */
export interface SignInAuthSettings {
  mode: 'signin';
  /** The origin of AUTH_RESOURCE: this Worker, as RFC 8414 and RFC 9207 name it. */
  issuer: string;
  resource: string;
  /** The Worker itself, the only authorization server its metadata advertises. */
  authorizationServers: readonly string[];
  scopesSupported: readonly string[];
  /** RFC 9728 3.1: at the well-known path with the resource's path after it, from configuration. */
  metadataUrl: string;
  /** The consent page posts back with the Worker's own origin, the issuer. */
  pagesOrigin: string;
  login: LoginSettings;
}

const LOGIN = {
  LOGIN_PROVIDER: { default: undefined, accepts: '`github` or `oidc`', parse: oneOf('github', 'oidc') },
  LOGIN_ISSUER: { default: undefined, accepts: 'an https URL (http only on loopback)', parse: url },
  LOGIN_CLIENT_ID: {
    default: undefined,
    accepts: 'the client ID the provider gave this app (no whitespace)',
    parse: matching(/^[\x21-\x7e]{1,256}$/),
  },
  LOGIN_GITHUB_URL: { default: 'https://github.com', accepts: 'an https URL (http only on loopback)', parse: url },
  LOGIN_GITHUB_API_URL: {
    default: 'https://api.github.com',
    accepts: 'an https URL (http only on loopback)',
    parse: url,
  },
  LOGIN_CLIENT_SECRET: {
    default: undefined,
    accepts: 'the client secret the provider gave this app, with no whitespace around it',
    parse: secret,
    secret: true,
  },
} satisfies SettingRows;

const { AUTH_RESOURCE } = SHARED_AUTH_SETTINGS;
export const signInSettings = { AUTH_RESOURCE, ...LOGIN } satisfies SettingRows;

const NEED = 'is required with AUTH_MODE = "signin" (docs/sign-in.md)';

/** AUTH_MODE = "signin": issuer and resource from AUTH_RESOURCE, the LOGIN_* settings, or the one missing or out of place. */
function parseSignIn(
  values: ValuesOf<typeof signInSettings> & {
    AUTH_SCOPES: readonly string[];
    MCP_STATE_SECRET: string | undefined;
  } & Readonly<Record<string, unknown>>,
): SignInAuthSettings | SettingError {
  const resource = values.AUTH_RESOURCE;
  if (!resource)
    return required(
      'AUTH_RESOURCE',
      'signin',
      " (docs/sign-in.md): this server's resource identifier; its origin is the issuer",
    );
  // The Worker issues its own tokens: an issuer or key set of another server would be a second truth.
  for (const name of ['AUTH_ISSUER', 'AUTH_JWKS_URL', 'AUTH_SERVERS']) {
    const value = values[name];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) {
      return new SettingError(
        name,
        'is not used with AUTH_MODE = "signin": the Worker is its own issuer, the origin of AUTH_RESOURCE',
      );
    }
  }
  const {
    LOGIN_PROVIDER: provider,
    LOGIN_CLIENT_ID: clientId,
    LOGIN_CLIENT_SECRET: clientSecret,
    MCP_STATE_SECRET: stateSecret,
    LOGIN_ISSUER: issuer,
  } = values;
  if (!provider) return new SettingError('LOGIN_PROVIDER', `${NEED}: \`github\` or \`oidc\``);
  if (provider === 'oidc' && !issuer)
    return new SettingError(
      'LOGIN_ISSUER',
      'is required with LOGIN_PROVIDER = "oidc": the provider\'s issuer, where /.well-known/openid-configuration is',
    );
  if (provider === 'github' && issuer)
    return new SettingError(
      'LOGIN_ISSUER',
      'is for LOGIN_PROVIDER = "oidc" only; GitHub\'s endpoints are LOGIN_GITHUB_URL and LOGIN_GITHUB_API_URL',
    );
  if (!clientId)
    return new SettingError('LOGIN_CLIENT_ID', `${NEED}: the client ID of the app registered with the provider`);
  if (!clientSecret)
    return new SettingError('LOGIN_CLIENT_SECRET', `${NEED} (\`wrangler secret put LOGIN_CLIENT_SECRET\`)`);
  // Remembered consent is signed with a key derived from it: a random per-isolate key would forget it at random.
  if (!stateSecret)
    return new SettingError('MCP_STATE_SECRET', `${NEED}: remembered consent is signed with a key derived from it`);
  const login: LoginSettings =
    provider === 'oidc'
      ? { provider, clientId, clientSecret, issuer: issuer!, stateSecret }
      : {
          provider,
          clientId,
          clientSecret,
          githubUrl: withoutTrailingSlash(values.LOGIN_GITHUB_URL),
          githubApiUrl: withoutTrailingSlash(values.LOGIN_GITHUB_API_URL),
          stateSecret,
        };
  const origin = new URL(resource).origin;
  return {
    mode: 'signin',
    issuer: origin,
    resource,
    authorizationServers: [origin],
    scopesSupported: values.AUTH_SCOPES,
    metadataUrl: resourceMetadataUrl(resource),
    pagesOrigin: origin,
    login,
  };
}

/** A LOGIN_ var while another mode is on would be silently ignored: say so instead. (A secret left set is harmless.) */
function loginUnused(values: Readonly<Record<string, unknown>>): SettingError | undefined {
  const set = (Object.keys(LOGIN) as (keyof typeof LOGIN)[]).find(
    (name) => !('secret' in LOGIN[name]) && values[name] !== LOGIN[name].default,
  );
  return set ? new SettingError(set, 'is set, but AUTH_MODE is not "signin" (docs/sign-in.md)') : undefined;
}

/** A base URL without its trailing slashes, so paths are appended to it as they are. */
const withoutTrailingSlash = (url: string | undefined) => (url ?? '').replace(/\/+$/, '');

/** The sign-in mode's name, settings and parser, which `signIn()` (./signIn.ts) completes with its token check and routes. */
export const signInSettingsMode: Omit<
  AuthModeBase<SignInAuthSettings, typeof signInSettings>,
  'verify' | 'authenticate'
> = {
  name: 'signin',
  settings: signInSettings,
  parse: parseSignIn,
  unused: loginUnused,
};

/** The README's line of each of its own settings (`npm run settings`; not in the Worker's bundle). */
export const signInDocs: SettingDocs<typeof signInSettings> = {
  LOGIN_PROVIDER: {
    shownDefault: 'empty',
    doc: 'For `signin` (required): the provider users sign in with, `github` (an OAuth app) or `oidc` (any OpenID Connect provider, by discovery) ([docs/sign-in.md](docs/sign-in.md)).',
  },
  LOGIN_ISSUER: {
    shownDefault: 'empty',
    doc: "For `signin` with `oidc` (required): the provider's issuer, where `/.well-known/openid-configuration` is.",
  },
  LOGIN_CLIENT_ID: {
    shownDefault: 'empty',
    doc: 'For `signin` (required): the client ID of the app you registered with the provider.',
  },
  LOGIN_GITHUB_URL: {
    doc: "For `signin` with `github`: where GitHub's sign-in pages are (GitHub Enterprise, or a test fixture).",
  },
  LOGIN_GITHUB_API_URL: {
    doc: "For `signin` with `github`: GitHub's API, asked who signed in and used by tools that act as the user.",
  },
  LOGIN_CLIENT_SECRET: {
    shownDefault: 'unset',
    doc: 'Secret, for `signin` (required): the client secret of the app you registered with the provider.',
  },
};
