/**
 * The provider users sign in with (GitHub, any OpenID Connect provider): what the sign-in flow
 * asks of it, whichever it is. `./github.ts` and `./oidc.ts` implement it with `oauth4webapi`;
 * nothing here speaks OAuth by hand.
 */
import * as oauth from 'oauth4webapi';

/** What the Worker keeps of an upstream sign-in, encrypted in the grant (the library's `props`); handlers read it as `caller.props`. */
export type UpstreamProps = {
  readonly provider: 'github' | 'oidc';
  /** The user's upstream access token: tools that act as the user send it upstream. */
  readonly accessToken: string;
  /** The upstream refresh token, when the provider issued one. */
  readonly refreshToken?: string;
  /** When `accessToken` expires (epoch seconds), when the provider said. */
  readonly expiresAt?: number;
  /** Who signed in, as the provider says it: GitHub's `login`, `id`, `name`; an ID token's `sub`, `email`, `name`. */
  readonly claims: Readonly<Record<string, string | number>>;
};

/** A user signed in upstream: the grant's `userId` (never containing ':', the library's token separator) and its props. */
export interface SignedIn {
  readonly userId: string;
  readonly props: UpstreamProps;
}

/** What the Worker keeps between the redirect upstream and the callback (the library encrypts it, bound to the browser). */
export interface Pending {
  readonly verifier: string;
  readonly nonce: string;
}

export interface Upstream {
  /** The provider's authorization endpoint (for OIDC, from discovery): known before anything is stored, so an outage is a 503 first. */
  authorizationEndpoint(): Promise<URL>;
  /** Where the browser goes to sign in: PKCE S256 challenge, `state` from the library, and, for OIDC, the `nonce`. */
  authorizationUrl(request: { state: string; codeChallenge: string; nonce: string }): Promise<URL>;
  /** At the callback: the code exchanged (with the PKCE verifier), the ID token checked (OIDC), who signed in. */
  finish(callback: URL, pending: Pending): Promise<SignedIn>;
  /** On an MCP client's refresh: a refreshed upstream token, or the proof that the old one still works. */
  refresh(props: UpstreamProps): Promise<UpstreamProps>;
}

/** The provider refused the grant (the user revoked the app, a code or refresh token is bad): the MCP client must sign in again. */
export class UpstreamRefused extends Error {}

/** The provider did not answer (down, timed out, rate limited): retry later, the grant stays. */
export class UpstreamUnavailable extends Error {}

/** How long one request to the provider may take. */
export const UPSTREAM_TIMEOUT_MS = 5000;

/** The Worker's callback, on its own origin, outside /mcp, /oauth/token, /oauth/register and /.well-known. */
export const CALLBACK_PATH = '/oauth/callback';

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * Options for every oauth4webapi request: a time limit, and plain http only for a loopback
 * provider (a test fixture or a local one; the settings refuse http anywhere else).
 */
export function requestOptions(url: string): { signal: () => AbortSignal; [oauth.allowInsecureRequests]?: boolean } {
  const { protocol, hostname } = new URL(url);
  return {
    signal: () => AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    ...(protocol === 'http:' && LOOPBACK.test(hostname) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/** A value the provider sent, kept only when it is short text or a number, so nothing unbounded reaches storage or a log. */
function boundedClaim(value: unknown, max = 256): string | number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

/** Only the claims that have a bounded value. */
export function boundedClaims(entries: Record<string, unknown>): Record<string, string | number> {
  const claims: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(entries)) {
    const kept = boundedClaim(value);
    if (kept !== undefined) claims[name] = kept;
  }
  return claims;
}

/** The token answer, as props: a refresh token kept when the provider did not rotate it. */
export function tokenProps(
  tokens: oauth.TokenEndpointResponse,
  previousRefresh?: string,
): Pick<UpstreamProps, 'accessToken' | 'refreshToken' | 'expiresAt'> {
  const refreshToken = tokens.refresh_token ?? previousRefresh;
  return {
    accessToken: tokens.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(typeof tokens.expires_in === 'number' ? { expiresAt: Math.floor(Date.now() / 1000) + tokens.expires_in } : {}),
  };
}

/** This Worker as the provider's OAuth client: what every grant request sends. */
export interface UpstreamClient {
  readonly client: oauth.Client;
  readonly clientAuth: oauth.ClientAuth;
  readonly redirectUri: string;
  readonly options: Parameters<typeof oauth.authorizationCodeGrantRequest>[6];
}

/**
 * At the callback: the authorization response checked (`state` by the library, in
 * finishUpstream; `iss` here when the provider sends it, RFC 9207), then the code exchanged with
 * the PKCE verifier. `checks`: what an OpenID provider's answer must also hold (the ID token, its nonce).
 */
export function exchangeCode(
  as: oauth.AuthorizationServer,
  { client, clientAuth, redirectUri, options }: UpstreamClient,
  callback: URL,
  verifier: string,
  checks?: oauth.ProcessAuthorizationCodeResponseOptions,
): Promise<oauth.TokenEndpointResponse> {
  const params = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck);
  return upstreamCall(async () =>
    oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, options),
      checks,
    ),
  );
}

/** The refresh grant: a refreshed token answer, or `UpstreamRefused` when the provider no longer honours it. */
export function refreshGrant(
  as: oauth.AuthorizationServer,
  { client, clientAuth, options }: UpstreamClient,
  refreshToken: string,
): Promise<oauth.TokenEndpointResponse> {
  return upstreamCall(async () =>
    oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, options),
    ),
  );
}

/**
 * Runs a call to the provider: a refusal of the grant (`invalid_grant`, GitHub's
 * `bad_refresh_token`) is `UpstreamRefused`; no answer, a 5xx or a 429 is `UpstreamUnavailable`.
 */
export async function upstreamCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof UpstreamRefused || error instanceof UpstreamUnavailable) throw error;
    if (error instanceof oauth.ResponseBodyError) {
      // The provider's error code goes into a log line: clipped, whatever it sent.
      const code = String(error.error).slice(0, 64);
      if (error.status >= 500 || error.status === 429 || code === 'temporarily_unavailable')
        throw new UpstreamUnavailable(`the provider answered ${error.status} ${code}`);
      throw new UpstreamRefused(`the provider refused: ${code}`);
    }
    if (
      error instanceof oauth.OperationProcessingError &&
      error.cause instanceof Response &&
      error.cause.status >= 500
    ) {
      throw new UpstreamUnavailable(`the provider answered ${error.cause.status}`);
    }
    if (
      error instanceof TypeError ||
      (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    ) {
      throw new UpstreamUnavailable(`the provider did not answer: ${error.message.slice(0, 120)}`);
    }
    throw error;
  }
}
