/**
 * GitHub as the upstream provider (an OAuth app, or a GitHub App's user tokens): the worked
 * example of docs/sign-in.md. GitHub is OAuth 2.0 without discovery, so its two endpoints are
 * written here, under LOGIN_GITHUB_URL; who signed in comes from its API (LOGIN_GITHUB_API_URL).
 * The protocol itself (PKCE, the code and refresh grants, their answers) is oauth4webapi's.
 */
import * as oauth from 'oauth4webapi';
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
  UPSTREAM_TIMEOUT_MS,
  type Pending,
  type SignedIn,
  type Upstream,
  type UpstreamProps,
} from './upstream.js';

type GitHubLogin = Extract<LoginSettings, { provider: 'github' }>;

/** What the Worker asks of the user's account: read their profile. `repo` would add private repositories (docs/sign-in.md). */
const GITHUB_SCOPES = 'read:user';

/** GitHub's API wants a User-Agent and names its media type (docs.github.com, REST "Getting started"). */
export const githubApiHeaders = (token: string) => ({
  Authorization: `Bearer ${token}`,
  Accept: 'application/vnd.github+json',
  'User-Agent': 'mcp-worker-template',
  'X-GitHub-Api-Version': '2022-11-28',
});

export function github(login: GitHubLogin, issuer: string): Upstream {
  const as: oauth.AuthorizationServer = {
    issuer: login.githubUrl,
    authorization_endpoint: `${login.githubUrl}/login/oauth/authorize`,
    token_endpoint: `${login.githubUrl}/login/oauth/access_token`,
  };
  const us: UpstreamClient = {
    client: { client_id: login.clientId },
    clientAuth: oauth.ClientSecretPost(login.clientSecret),
    redirectUri: `${issuer}${CALLBACK_PATH}`,
    options: { ...requestOptions(login.githubUrl), [oauth.customFetch]: tokenErrorsAsErrors },
  };

  return {
    authorizationEndpoint: async () => new URL(as.authorization_endpoint!),

    async authorizationUrl({ state, codeChallenge }) {
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: login.clientId,
        redirect_uri: us.redirectUri,
        scope: GITHUB_SCOPES,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return url;
    },

    async finish(callback: URL, pending: Pending): Promise<SignedIn> {
      // GitHub sends no `iss` (RFC 9207 is optional).
      const tokens = await exchangeCode(as, us, callback, pending.verifier);
      const user = await githubUser(login.githubApiUrl, tokens.access_token);
      if (!user) throw new UpstreamRefused('GitHub refused the token it has just issued');
      return { userId: `github-${user.id}`, props: propsOf(tokens, user) };
    },

    async refresh(props: UpstreamProps): Promise<UpstreamProps> {
      if (props.refreshToken === undefined) {
        // An OAuth app's token never expires: what a refresh can learn is whether it still works.
        if (!(await githubUser(login.githubApiUrl, props.accessToken)))
          throw new UpstreamRefused('GitHub no longer accepts the token');
        return props;
      }
      const refreshToken = props.refreshToken;
      const tokens = await refreshGrant(as, us, refreshToken);
      return { ...props, ...tokenProps(tokens, refreshToken) };
    },
  };
}

interface GitHubUser {
  id: number;
  login: string;
  name?: string;
}

/** The signed-in user (GET /user), undefined when GitHub refuses the token (401). */
async function githubUser(apiUrl: string, token: string): Promise<GitHubUser | undefined> {
  const response = await upstreamCall(() =>
    fetch(`${apiUrl}/user`, { headers: githubApiHeaders(token), signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) }),
  );
  if (response.status === 401) return undefined;
  if (!response.ok) throw new UpstreamUnavailable(`GitHub's /user answered ${response.status}`);
  const user = (await response.json()) as Record<string, unknown>;
  // A numeric id and a login as GitHub spells them: nothing else becomes a userId.
  if (
    !Number.isSafeInteger(user.id) ||
    (user.id as number) <= 0 ||
    typeof user.login !== 'string' ||
    !/^[A-Za-z0-9-]{1,39}$/.test(user.login)
  ) {
    throw new UpstreamUnavailable("GitHub's /user answered without a valid id and login");
  }
  return { id: user.id as number, login: user.login, ...(typeof user.name === 'string' ? { name: user.name } : {}) };
}

function propsOf(tokens: oauth.TokenEndpointResponse, user: GitHubUser): UpstreamProps {
  return {
    provider: 'github',
    ...tokenProps(tokens),
    claims: boundedClaims({ login: user.login, id: user.id, name: user.name }),
  };
}

/**
 * GitHub answers a failed token request with 200 and `{"error": …}` (its OAuth docs,
 * "Troubleshooting"); RFC 6749 5.2 says 400. Given the status the RFC says, oauth4webapi reports
 * it as the `ResponseBodyError` it is, with GitHub's code (`bad_refresh_token`, `bad_verification_code`).
 */
async function tokenErrorsAsErrors(
  url: string,
  init: oauth.CustomFetchOptions<'POST', URLSearchParams>,
): Promise<Response> {
  const response = await fetch(url, init);
  if (response.status !== 200 || !response.headers.get('Content-Type')?.includes('json')) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined; // not JSON after all: oauth4webapi says so
  }
  const refused = typeof body === 'object' && body !== null && 'error' in body && !('access_token' in body);
  return new Response(text, { status: refused ? 400 : 200, headers: response.headers });
}
