/**
 * The sign-in mode (AUTH_MODE = "signin", docs/sign-in.md): the Worker is its own OAuth 2.1
 * authorization server for MCP clients, built on `@cloudflare/workers-oauth-provider`, and signs
 * its users in through an upstream provider (`./github.ts`, `./oidc.ts`). The library serves the
 * protocol (RFC 8414 metadata, the token endpoint and its refresh tokens, revocation, RFC 7591
 * registration and Client ID Metadata Documents, PKCE S256, RFC 9207 `iss`) and keeps grants in
 * KV (`OAUTH_KV`), props encrypted; this module owns the pages in between (`./authorize.ts`) and
 * hands the router what it needs: these routes, and the check of `/mcp`'s token.
 *
 * Nothing is taken from the request's Host: the issuer, the resource and the callback all come
 * from AUTH_RESOURCE. One authorization server per isolate, rebuilt only when the settings change.
 */
import { OAuthAuthorizationServer, OAuthError } from '@cloudflare/workers-oauth-provider';
import type { Caller } from '../mcp/request';
import type { IssuerUnreachable, SignIn } from '../http/auth';
import type { HttpContext } from '../http/context';
import type { SignInAuthSettings } from '../http/settings';
import { authorize, callback } from './authorize';
import { github } from './github';
import { oidc } from './oidc';
import { CALLBACK_PATH, UpstreamRefused, UpstreamUnavailable, type Upstream, type UpstreamProps } from './upstream';

/** The authorization server of one set of settings, the upstream it signs users in with, and the key of remembered consent. */
export interface SignInServer {
  readonly auth: SignInAuthSettings;
  readonly server: OAuthAuthorizationServer<Env>;
  readonly upstream: Upstream;
  /** What the consent page names as the provider: "GitHub", or the OIDC issuer's host. */
  readonly providerName: string;
  /** Signs remembered consent (the library's approvals cookie): derived from MCP_STATE_SECRET. */
  rememberSecret(): Promise<string>;
}

/** Paths of the authorization server: the library's (RFC 8414 metadata, token, registration), and the two pages of `./authorize.ts`. */
export const AUTHORIZE_PATH = '/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';

/** A refused upstream refresh: how long a client should wait before it tries again. */
const RETRY_AFTER_SECONDS = 5;
/** Longest access token the check of `/mcp` reads (the library's are about 100 characters): nothing longer reaches KV. */
const MAX_TOKEN_LENGTH = 1024;

let current: SignInServer | undefined;

/** The authorization server of these settings, made once per isolate (the settings object is kept while the values stay the same). */
export function signInServer(auth: SignInAuthSettings): SignInServer {
  if (current?.auth === auth) return current;
  const upstream = auth.login.provider === 'github' ? github(auth.login, auth.issuer) : oidc(auth.login, auth.issuer);
  let remember: Promise<string> | undefined;
  current = {
    auth,
    upstream,
    providerName: auth.login.provider === 'github' ? 'GitHub' : new URL(auth.login.issuer).host,
    server: new OAuthAuthorizationServer<Env>({
      issuer: auth.issuer,
      resources: [auth.resource],
      authorizeEndpoint: `${auth.issuer}${AUTHORIZE_PATH}`,
      tokenEndpoint: `${auth.issuer}${TOKEN_PATH}`,
      clientRegistrationEndpoint: `${auth.issuer}${REGISTER_PATH}`,
      ...(auth.scopesSupported.length > 0 ? { scopesSupported: [...auth.scopesSupported] } : {}),
      // Advertised only where the runtime has global_fetch_strictly_public (wrangler.oauth.toml), which keeps its fetches off private addresses.
      clientIdMetadataDocumentEnabled: true,
      tokenExchangeCallback: ({ grantType, props }) => (grantType === 'refresh_token' ? refreshUpstream(upstream, props as UpstreamProps) : undefined),
    }),
    rememberSecret: () => (remember ??= derivedKey(auth.stateSecret, 'mcp-worker-template remembered consent')),
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
    if (error instanceof UpstreamRefused) throw new OAuthError('invalid_grant', { description: 'the sign-in provider no longer accepts this grant: authorize again' });
    if (error instanceof UpstreamUnavailable) {
      console.warn(`sign-in: the upstream refresh failed: ${error.message}`);
      throw new OAuthError('temporarily_unavailable', { description: 'the sign-in provider did not answer; retry later', statusCode: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
    }
    throw error;
  }
}

/** HMAC-SHA-256 of `label` under `secret`, base64: a key of its own for each use of the one secret. */
async function derivedKey(secret: string, label: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(label)));
  return btoa(String.fromCharCode(...mac));
}

/** The sign-in server of this request; 404 when sign-in is off (the router has refused to serve without OAUTH_KV). */
export function serverOf(context: HttpContext): SignInServer | Response {
  const { auth } = context.settings;
  if (auth.mode !== 'signin') return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  return signInServer(auth);
}

/** The library's endpoints: metadata, token (refresh and revocation too), registration. Its own CORS and errors. */
function libraryEndpoint(context: HttpContext): Promise<Response> | Response {
  const signIn = serverOf(context);
  return signIn instanceof Response ? signIn : signIn.server.fetch(context.request, context.env, context.ctx);
}

/**
 * `/mcp`'s token, checked by the library's resource-server validation (`validateToken`: the
 * token's record in KV, its audience this resource, its props decrypted). KV failing is an
 * outage: 503 with Retry-After, never a refusal that sends the client back to sign in.
 */
async function verify(token: string, auth: SignInAuthSettings, env: Env): Promise<Caller | IssuerUnreachable | undefined> {
  if (token.length > MAX_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) return undefined;
  try {
    const valid = await signInServer(auth).server.validateToken<UpstreamProps>(auth.resource, token, env);
    if (!valid) return undefined;
    return { subject: valid.userId, scopes: valid.scope, claims: valid.props.claims, props: valid.props };
  } catch (error) {
    console.error('sign-in: the token store could not be read', error);
    return { unreachable: true, retryAfterSeconds: RETRY_AFTER_SECONDS };
  }
}

/**
 * What `createRouter(server, { signIn: signIn() })` serves in the sign-in configuration
 * (src/with-sign-in.ts): the authorization server's routes, and the check of `/mcp`'s token.
 */
export function signIn(): SignIn {
  return {
    verify,
    routes: [
      { path: AUTHORIZE_PATH, serve: authorize },
      { path: CALLBACK_PATH, serve: callback },
      { path: TOKEN_PATH, serve: libraryEndpoint },
      { path: REGISTER_PATH, serve: libraryEndpoint },
      { path: AS_METADATA_PATH, serve: libraryEndpoint },
    ],
  };
}
