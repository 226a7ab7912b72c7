/**
 * Any OpenID Connect provider as the upstream (Google, Okta, Auth0, Keycloak, …), found by
 * discovery at LOGIN_ISSUER. oauth4webapi does the protocol: discovery (the issuer must match),
 * PKCE, RFC 9207 `iss` on the callback when the provider sends it, and the ID token's `iss`,
 * `aud`, `exp` and `nonce` checks; the ID token comes straight from the token endpoint over TLS,
 * as OpenID Connect Core 3.1.3.7 allows.
 */
import * as oauth from 'oauth4webapi';
import { sha256Hex } from '../mcp/internal.js';
import { MAX_USER_ID_CHARS } from './limits.js';
import type { LoginSettings } from './signInSettings.js';
import {
  boundedClaims,
  CALLBACK_PATH,
  requestOptions,
  tokenProps,
  exchangeCode,
  refreshGrant,
  upstreamCall,
  type UpstreamClient,
  UpstreamRefused,
  UpstreamUnavailable,
  type Pending,
  type SignedIn,
  type Upstream,
  type UpstreamProps,
} from './upstream.js';

type OidcLogin = Extract<LoginSettings, { provider: 'oidc' }>;

/** Who the user is, and nothing more. */
const OIDC_SCOPES = 'openid profile email';

export function oidc(login: OidcLogin, issuer: string): Upstream {
  const options = requestOptions(login.issuer);
  const us: UpstreamClient = {
    client: { client_id: login.clientId },
    clientAuth: oauth.ClientSecretPost(login.clientSecret),
    redirectUri: `${issuer}${CALLBACK_PATH}`,
    options,
  };
  let discovered: Promise<oauth.AuthorizationServer> | undefined;

  /** The provider's metadata, fetched once per isolate; a failure is not kept, so the next request tries again. */
  function metadata(): Promise<oauth.AuthorizationServer> {
    const issuerUrl = new URL(login.issuer);
    discovered ??= upstreamCall(async () =>
      oauth.processDiscoveryResponse(
        issuerUrl,
        await oauth.discoveryRequest(issuerUrl, { ...options, algorithm: 'oidc' }),
      ),
    );
    discovered.catch(() => (discovered = undefined));
    return discovered;
  }

  async function authorizationEndpoint(): Promise<URL> {
    const as = await metadata();
    if (!as.authorization_endpoint)
      throw new UpstreamUnavailable("the provider's metadata has no authorization_endpoint");
    return new URL(as.authorization_endpoint);
  }

  return {
    authorizationEndpoint,

    async authorizationUrl({ state, codeChallenge, nonce }) {
      const url = await authorizationEndpoint();
      for (const [name, value] of Object.entries({
        client_id: login.clientId,
        redirect_uri: us.redirectUri,
        response_type: 'code',
        scope: OIDC_SCOPES,
        state,
        nonce,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      }))
        url.searchParams.set(name, value);
      return url;
    },

    async finish(callback: URL, pending: Pending): Promise<SignedIn> {
      const as = await metadata();
      const tokens = await exchangeCode(as, us, callback, pending.verifier, {
        expectedNonce: pending.nonce,
        requireIdToken: true,
      });
      const claims = oauth.getValidatedIdTokenClaims(tokens)!;
      return {
        userId: await userIdOf(claims.sub),
        props: { provider: 'oidc', ...tokenProps(tokens), claims: idClaims(claims) },
      };
    },

    async refresh(props: UpstreamProps): Promise<UpstreamProps> {
      if (props.refreshToken === undefined) {
        // Nothing to refresh with: the upstream token serves until it expires, then the user signs in again.
        if (props.expiresAt !== undefined && props.expiresAt <= Date.now() / 1000)
          throw new UpstreamRefused('the upstream token expired and there is no refresh token');
        return props;
      }
      const as = await metadata();
      const refreshToken = props.refreshToken;
      const tokens = await refreshGrant(as, us, refreshToken);
      return { ...props, ...tokenProps(tokens, refreshToken) };
    },
  };
}

/**
 * The grant's userId for a `sub`: the library's tokens are `userId:grantId:secret`, and a `sub`
 * may hold ':', so it is URL-encoded (no ':' left); one whose encoding would be too long to be a
 * caller's subject or a KV key (OpenID Connect allows 255 characters, encoding triples some) is its SHA-256.
 */
async function userIdOf(sub: string): Promise<string> {
  const encoded = `oidc-${encodeURIComponent(sub)}`;
  if (encoded.length <= MAX_USER_ID_CHARS) return encoded;
  return `oidc-sha256-${await sha256Hex(sub)}`;
}

/** The ID token's claims a handler may want, bounded: who, from where, and how to greet them. */
const idClaims = (claims: oauth.IDToken) =>
  boundedClaims({
    iss: claims.iss,
    sub: claims.sub,
    email: claims.email,
    email_verified: claims.email_verified === true ? 1 : undefined,
    name: claims.name,
    preferred_username: claims.preferred_username,
  });
