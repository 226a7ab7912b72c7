/**
 * The authorization server of the sign-in mode (docs/sign-in.md): `@cloudflare/workers-oauth-provider`
 * configured from the settings, with the upstream provider it signs users in with and the refresh
 * that keeps the upstream token alive. Nothing is taken from the request's Host: the issuer, the
 * resource and the callback all come from AUTH_RESOURCE. One per isolate, rebuilt only when the
 * settings change.
 */
import { OAuthAuthorizationServer, OAuthError } from '@cloudflare/workers-oauth-provider';
import type { HttpContext } from '../http/context';
import { SettingError } from '../http/settings/settingsTable';
import type { SignInAuthSettings } from './signInSettings';
import { github } from './github';
import { oidc } from './oidc';
import { UpstreamRefused, UpstreamUnavailable, type Upstream, type UpstreamProps } from './upstream';
import type { WorkerEnv } from '../mcp/internal';

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

/** The provider or the token store unavailable: how long a client should wait before it tries again. */
export const RETRY_AFTER_SECONDS = 5;

/** How long a dynamically registered client lives without a token request (the library's default is 90 days). */
const REGISTRATION_TTL_SECONDS = 7 * 24 * 60 * 60;

let current: SignInServer | undefined;

/** The authorization server of these settings, made once per isolate (the settings object is kept while the values stay the same). */
export function signInServer(auth: SignInAuthSettings): SignInServer {
  if (current?.auth === auth) return current;
  const { login } = auth;
  const upstream = login.provider === 'github' ? github(login, auth.issuer) : oidc(login, auth.issuer);
  let remember: Promise<string> | undefined;
  let offerKey: Promise<string> | undefined;
  current = {
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
    }),
    rememberSecret: () => (remember ??= derivedKey(login.stateSecret, 'mcp-worker-template remembered consent')),
    signOffer: async (text) =>
      derivedKey(await (offerKey ??= derivedKey(login.stateSecret, 'mcp-worker-template consent offer')), text),
  };
  return current;
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
export function serverOf(context: HttpContext): SignInServer | Response {
  const { auth } = context.settings;
  if (auth.mode !== 'signin')
    return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  return signInServer(auth as SignInAuthSettings);
}
