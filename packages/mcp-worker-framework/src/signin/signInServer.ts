/**
 * The authorization server of the sign-in mode (docs/sign-in.md): `@cloudflare/workers-oauth-provider`
 * configured from the settings, with the upstream provider it signs users in with and the refresh
 * that keeps the upstream token alive. Nothing is taken from the request's Host: the issuer, the
 * resource and the callback all come from AUTH_RESOURCE. One per isolate, rebuilt only when the
 * settings change.
 */
import { OAuthAuthorizationServer, OAuthError, type OAuthErrorInternal } from '@cloudflare/workers-oauth-provider';
import type { HttpContext } from '../http/context.js';
import { SettingError } from '../http/settings/settingsTable.js';
import type { SignInAuthSettings } from './signInSettings.js';
import { github } from './github.js';
import { oidc } from './oidc.js';
import { UpstreamRefused, UpstreamUnavailable, type Upstream, type UpstreamProps } from './upstream.js';
import type { WorkerEnv } from '../mcp/internal.js';
import { enterpriseError, enterpriseGrant, type EnterpriseOptions } from './enterprise.js';
import { RETRY_AFTER_SECONDS } from './oauthError.js';

/** The authorization server of one set of settings, the upstream it signs users in with, and the key of remembered consent. */
export interface SignInServer {
  readonly auth: SignInAuthSettings;
  readonly server: OAuthAuthorizationServer<WorkerEnv>;
  readonly upstream: Upstream;
  /** What the consent page names as the provider: "GitHub", or the OIDC issuer's host. */
  readonly providerName: string;
  /** Signs remembered consent (the library's approvals cookie): derived from MCP_STATE_SECRET. */
  rememberSecret(): Promise<string>;
  /** HMAC-SHA-256 of `text`, base64, under a key of its own derived from MCP_STATE_SECRET: what the consent page offered. */
  signOffer(text: string): Promise<string>;
}

/** Paths of the authorization server: the library's (RFC 8414 metadata, token, registration), and the two pages of `./authorize.ts`. */
export const AUTHORIZE_PATH = '/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';

export { RETRY_AFTER_SECONDS };

/** How long a dynamically registered client lives without a token request (the library's default is 90 days). */
const REGISTRATION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** What sign-in is given in code (`signIn()` of src/index.ts) besides its settings. */
interface SignInServerOptions {
  /** Enterprise sign-in: the identity providers whose people are served (`./enterprise.ts`). */
  readonly enterprise?: EnterpriseOptions;
}

/** The authorization server of the settings a request has, for the options of one `signIn()`. */
export type SignInServers = (auth: SignInAuthSettings) => SignInServer;

/** The authorization servers of `options`: one per isolate, made again only when the settings change (their object is kept while the values stay the same). */
export function signInServers(options: SignInServerOptions = {}): SignInServers {
  let current: SignInServer | undefined;
  return (auth) => (current?.auth === auth ? current : (current = signInServer(auth, options)));
}

/** The authorization server of these settings and options. */
function signInServer(auth: SignInAuthSettings, { enterprise }: SignInServerOptions): SignInServer {
  const { login } = auth;
  const upstream = login.provider === 'github' ? github(login, auth.issuer) : oidc(login, auth.issuer);
  let remember: Promise<string> | undefined;
  let offerKey: Promise<string> | undefined;
  return {
    auth,
    upstream,
    providerName: login.provider === 'github' ? 'GitHub' : new URL(login.issuer).host,
    server: new OAuthAuthorizationServer<WorkerEnv>({
      issuer: auth.issuer,
      resources: [auth.resource],
      authorizeEndpoint: `${auth.issuer}${AUTHORIZE_PATH}`,
      tokenEndpoint: `${auth.issuer}${TOKEN_PATH}`,
      clientRegistrationEndpoint: `${auth.issuer}${REGISTER_PATH}`,
      // A registered client that never completes a grant is gone after this; one that does is renewed by the library on its token requests.
      clientRegistrationTTL: REGISTRATION_TTL_SECONDS,
      ...(auth.scopesSupported.length > 0 ? { scopesSupported: [...auth.scopesSupported] } : {}),
      // Advertised only where the runtime has global_fetch_strictly_public (wrangler.toml), which keeps its fetches off private addresses.
      clientIdMetadataDocumentEnabled: true,
      tokenExchangeCallback: ({ grantType, props }) =>
        grantType === 'refresh_token' ? refreshUpstream(upstream, props as UpstreamProps) : undefined,
      // Enterprise sign-in (./enterprise.ts): the ID-JAG grant, advertised in the metadata (grant type and profile).
      ...(enterprise ? { enterpriseManagedAuthorization: enterpriseGrant(enterprise, auth.scopesSupported) } : {}),
      onError: ({ status, code, internal }) => enterpriseError(internal) ?? logError(status, code, internal),
    }),
    rememberSecret: () => (remember ??= derivedKey(login.stateSecret, 'mcp-worker-template remembered consent')),
    signOffer: async (text) =>
      derivedKey(await (offerKey ??= derivedKey(login.stateSecret, 'mcp-worker-template consent offer')), text),
  };
}

/** The library's own log line of an OAuth error answered, with the check that failed (never sent to the client). */
function logError(status: number, code: string, { category, reason }: OAuthErrorInternal): undefined {
  console.warn(`OAuth error response: ${status} ${code} (${category}: ${reason})`);
  return undefined;
}

/**
 * An MCP client's refresh refreshes the upstream token too (or, for a token that never expires,
 * checks that it still works). The library's guide (node_modules/@cloudflare/workers-oauth-provider/docs/upstream-sign-in.md): a refused upstream grant
 * is `invalid_grant`, which revokes this grant so the client signs in again; an outage is
 * `temporarily_unavailable`, which keeps it for the retry.
 */
async function refreshUpstream(upstream: Upstream, props: UpstreamProps) {
  try {
    const next = await upstream.refresh(props);
    return next === props ? undefined : { newProps: next, accessTokenProps: next };
  } catch (error) {
    if (error instanceof UpstreamRefused)
      throw new OAuthError('invalid_grant', {
        description: 'the sign-in provider no longer accepts this grant: authorize again',
      });
    if (error instanceof UpstreamUnavailable) {
      console.warn(`sign-in: the upstream refresh failed: ${error.message}`);
      throw new OAuthError('temporarily_unavailable', {
        description: 'the sign-in provider did not answer; retry later',
        statusCode: 503,
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      });
    }
    throw error;
  }
}

/** HMAC-SHA-256 of `label` under `secret`, base64: a key of its own for each use of the one secret. */
async function derivedKey(secret: string, label: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(label)));
  return btoa(String.fromCharCode(...mac));
}

/**
 * Why the sign-in mode cannot serve this deployment (no OAUTH_KV binding; a LOGIN_ setting
 * missing or out of place is its parser's): the router then refuses every request, naming it.
 */
export function problem(_auth: SignInAuthSettings, env: WorkerEnv): SettingError | undefined {
  if (!env.OAUTH_KV)
    return new SettingError(
      'OAUTH_KV',
      'is required with AUTH_MODE = "signin": a KV namespace binding (the sign-in block of wrangler.toml, docs/sign-in.md)',
    );
  if (!env.SIGN_IN_RATE_LIMITER) {
    return new SettingError(
      'SIGN_IN_RATE_LIMITER',
      'is required with AUTH_MODE = "signin": a rate limiting binding that counts registrations and consent pages per address (the sign-in block of wrangler.toml, docs/sign-in.md)',
    );
  }
  return undefined;
}

/** The sign-in server of this request; 404 when sign-in is off (the router has refused to serve without what it needs). */
export function serverOf(context: HttpContext, servers: SignInServers): SignInServer | Response {
  const { auth } = context.settings;
  if (auth.mode !== 'signin')
    return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  return servers(auth as SignInAuthSettings);
}
