/**
 * Loopback stand-ins for the providers users sign in with (docs/sign-in.md): a GitHub-shaped one
 * (an OAuth app's `/login/oauth/authorize` and `/login/oauth/access_token`, and an API with
 * `/user` and `/user/repos`) and an OpenID Connect issuer (discovery, authorize, token with a
 * signed ID token). Each checks what the real one checks (client secret, redirect URI, PKCE S256,
 * single-use codes), signs its one user in without a page, and can be told to revoke what it
 * issued or to be down. What they received is kept, in order, for the flow's record.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const CLIENT_ID = 'login-client-id';
export const CLIENT_SECRET = 'login-client-secret';
/** The GitHub user who signs in. */
export const GITHUB_USER = { id: 4242, login: 'octo-user', name: 'Octo User' };
/** The OIDC user: a `sub` with ':' in it, which the Worker must encode in its userId. */
export const OIDC_SUB = 'tenant:42:user';

export interface Received {
  /** Who made it: the Worker (server to server), or the browser (redirected here). */
  by: 'worker' | 'browser';
  method: string;
  path: string;
  status: number;
  /** The `Authorization` header of an API call, when it had one. */
  authorization?: string;
}

export interface LoginProviders {
  /** LOGIN_GITHUB_URL and LOGIN_GITHUB_API_URL. */
  githubUrl: string;
  githubApiUrl: string;
  /** LOGIN_ISSUER. */
  oidcIssuer: string;
  /** Every request received, in order. */
  received: Received[];
  /** Revokes every token and refresh token issued so far, as a user revoking the app does. */
  revokeAll(): void;
  /** While true, every endpoint answers 503. */
  down: boolean;
  /** The OIDC stand-in's misbehaviours: another `iss` on the callback (RFC 9207), or an ID token with another `nonce`. */
  oidcCallbackIss: string | undefined;
  oidcWrongNonce: boolean;
  /** Whether the GitHub stand-in issues expiring tokens with refresh tokens (a GitHub App) or tokens that never expire (an OAuth app). */
  githubRefreshTokens: boolean;
  close(): Promise<void>;
}

interface Code {
  challenge: string;
  redirectUri: string;
  nonce?: string;
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const token = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

async function form(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return new URLSearchParams(body);
}

/** `log` receives every request too, e.g. to interleave them with the client's and the browser's. */
export async function startLoginProviders(
  log?: { by: string; method: string; url: string; status: number }[],
): Promise<LoginProviders> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'login-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, Code>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const received: Received[] = [];

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const providers: LoginProviders = {
    githubUrl: `${base}/github`,
    githubApiUrl: `${base}/github-api`,
    oidcIssuer: `${base}/oidc`,
    received,
    down: false,
    githubRefreshTokens: false,
    oidcCallbackIss: undefined,
    oidcWrongNonce: false,
    revokeAll: () => {
      accessTokens.clear();
      refreshTokens.clear();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function json(response: ServerResponse, status: number, body: unknown) {
    response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    return status;
  }

  /** The user signs in at once: back to the redirect URI with a code (and, for OIDC, `iss`: RFC 9207). */
  function signIn(response: ServerResponse, url: URL, iss?: string) {
    const p = url.searchParams;
    if (
      p.get('client_id') !== CLIENT_ID ||
      p.get('code_challenge_method') !== 'S256' ||
      !p.get('code_challenge') ||
      !p.get('state') ||
      !p.get('redirect_uri')
    ) {
      return json(response, 400, { error: 'invalid_request' });
    }
    const code = token('code');
    codes.set(code, {
      challenge: p.get('code_challenge')!,
      redirectUri: p.get('redirect_uri')!,
      ...(p.get('nonce') ? { nonce: p.get('nonce')! } : {}),
    });
    const back = new URL(p.get('redirect_uri')!);
    back.searchParams.set('code', code);
    back.searchParams.set('state', p.get('state')!);
    if (iss) back.searchParams.set('iss', iss);
    response.writeHead(302, { Location: back.href }).end();
    return 302;
  }

  /** The code grant: client secret, single-use code, same redirect URI, PKCE S256 (RFC 7636 4.6). */
  function redeem(params: URLSearchParams): Code | string {
    if (params.get('client_id') !== CLIENT_ID || params.get('client_secret') !== CLIENT_SECRET) return 'invalid_client';
    const code = codes.get(params.get('code') ?? '');
    codes.delete(params.get('code') ?? '');
    if (
      !code ||
      code.redirectUri !== params.get('redirect_uri') ||
      s256(params.get('code_verifier') ?? '') !== code.challenge
    )
      return 'bad_verification_code';
    return code;
  }

  function issue(withRefresh: boolean) {
    const access = token('gho');
    accessTokens.add(access);
    if (!withRefresh) return { access_token: access, token_type: 'bearer', scope: 'read:user' };
    const refresh = token('ghr');
    refreshTokens.add(refresh);
    return { access_token: access, token_type: 'bearer', expires_in: 3600, refresh_token: refresh };
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', base);
    // The browser is redirected to the sign-in page; everything else is the Worker calling.
    const by = url.pathname.endsWith('/authorize') ? 'browser' : 'worker';
    const record: Received = { by, method: request.method ?? '', path: url.pathname, status: 0 };
    if (request.headers.authorization) record.authorization = request.headers.authorization;
    received.push(record);
    const entry = { by, method: record.method, url: `${base}${url.pathname}${url.search ? '?…' : ''}`, status: 0 };
    if (by === 'worker') log?.push(entry); // the browser logs its own requests
    record.status = entry.status = providers.down
      ? json(response, 503, { message: 'down' })
      : await route(request, response, url);
  }

  async function route(request: IncomingMessage, response: ServerResponse, url: URL): Promise<number> {
    const bearer = request.headers.authorization?.replace(/^Bearer /i, '') ?? '';
    switch (`${request.method} ${url.pathname}`) {
      // GitHub: sign-in and token (errors with 200, as GitHub answers them)
      case 'GET /github/login/oauth/authorize':
        return signIn(response, url);
      case 'POST /github/login/oauth/access_token': {
        const params = await form(request);
        if (params.get('grant_type') === 'refresh_token') {
          const known = refreshTokens.delete(params.get('refresh_token') ?? '');
          return known
            ? json(response, 200, issue(true))
            : json(response, 200, {
                error: 'bad_refresh_token',
                error_description: 'The refresh token passed is incorrect or expired.',
              });
        }
        const code = redeem(params);
        return typeof code === 'string'
          ? json(response, 200, { error: code })
          : json(response, 200, issue(providers.githubRefreshTokens));
      }
      case 'GET /github-api/user':
        return accessTokens.has(bearer)
          ? json(response, 200, GITHUB_USER)
          : json(response, 401, { message: 'Bad credentials' });
      case 'GET /github-api/user/repos':
        return accessTokens.has(bearer)
          ? json(response, 200, [
              {
                full_name: `${GITHUB_USER.login}/secret-project`,
                private: true,
                description: 'only its owner sees it',
                html_url: `https://github.example/${GITHUB_USER.login}/secret-project`,
              },
            ])
          : json(response, 401, { message: 'Bad credentials' });
      // OpenID Connect
      case 'GET /oidc/.well-known/openid-configuration':
        return json(response, 200, {
          issuer: providers.oidcIssuer,
          authorization_endpoint: `${providers.oidcIssuer}/authorize`,
          token_endpoint: `${providers.oidcIssuer}/token`,
          jwks_uri: `${providers.oidcIssuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          authorization_response_iss_parameter_supported: true,
        });
      case 'GET /oidc/jwks':
        return json(response, 200, { keys: [jwk] });
      case 'GET /oidc/authorize':
        return signIn(response, url, providers.oidcCallbackIss ?? providers.oidcIssuer);
      case 'POST /oidc/token': {
        const params = await form(request);
        if (params.get('client_id') !== CLIENT_ID || params.get('client_secret') !== CLIENT_SECRET)
          return json(response, 401, { error: 'invalid_client' });
        if (params.get('grant_type') === 'refresh_token') {
          if (!refreshTokens.delete(params.get('refresh_token') ?? ''))
            return json(response, 400, { error: 'invalid_grant' });
          return json(response, 200, issue(true));
        }
        const code = redeem(params);
        if (typeof code === 'string') return json(response, 400, { error: 'invalid_grant' });
        const idToken = await new SignJWT({
          nonce: providers.oidcWrongNonce ? 'another-nonce' : code.nonce,
          email: 'user@example.com',
          name: 'OIDC User',
        })
          .setProtectedHeader({ alg: 'RS256', kid: 'login-key' })
          .setIssuer(providers.oidcIssuer)
          .setAudience(CLIENT_ID)
          .setSubject(OIDC_SUB)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
        return json(response, 200, { ...issue(true), id_token: idToken });
      }
      default:
        return json(response, 404, { error: 'not_found' });
    }
  }

  return providers;
}
