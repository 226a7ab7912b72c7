/**
 * Sign-in refuses what it must (docs/sign-in.md, "What is refused"), each as the
 * library documents it, and keeps the template's own steps in front of the authorization server:
 * requests by hand, in workerd, with the GitHub-shaped stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  CLIENT_REDIRECT,
  consentHandle,
  HandClient,
  type LoginProviders,
  pkce,
  startLoginProviders,
} from '../../src/testing/signin';
import { mcpHeaders, meta } from '../support/mcp';
import { startSignInWorker, type SignInWorker } from '../support/signInWorker';

let providers: LoginProviders;
let signInWorker: SignInWorker;
let origin: string;

beforeAll(async () => {
  providers = await startLoginProviders();
  // Request logs on for refusals: the log must see the authorization server's routes too. The
  // tests here register dozens of clients from one address: a looser SIGN_IN_RATE_LIMITER than
  // the sign-in fixture's, whose own limit is tested on a Worker of its own below.
  signInWorker = await startSignInWorker(providers, 'github', { REQUEST_LOGS: 'errors' }, signInLimiter(100_000));
  origin = signInWorker.origin;
}, 120_000);

afterAll(async () => {
  await signInWorker?.worker.dispose();
  await providers?.close();
});

const client = () => new HandClient(origin).register();

/** The sign-in fixture's address limiter, kept when a test replaces the sign-in limiter. */
const LIMITERS = { ADDRESS_RATE_LIMITER: { namespace_id: '1004', simple: { limit: 3000, period: 60 } } };
/** SIGN_IN_RATE_LIMITER at `limit` a minute. */
const signInLimiter = (limit: number) => ({
  ratelimits: { ...LIMITERS, SIGN_IN_RATE_LIMITER: { namespace_id: '1005', simple: { limit, period: 60 } } },
});

/** POST /oauth/register with `metadata` as JSON. */
const register = (metadata: Record<string, unknown>, at = origin) =>
  fetch(`${at}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(metadata),
  });

/** Approves the consent page of `url` in `browser`; the redirect to the provider (its Location). */
async function consent(browser: Browser, url: string, form: Record<string, string> = {}): Promise<Response> {
  const page = await browser.request(url);
  expect(page.status).toBe(200);
  return browser.request(`${origin}/authorize`, {
    form: { handle: consentHandle(await page.text()), decision: 'approve', ...form },
    origin,
  });
}

/** The whole flow by hand to the client's callback: its code, and the PKCE verifier. */
async function codeFor(hand: HandClient, browser = new Browser()) {
  const { verifier, challenge } = await pkce();
  const { location } = await browser.follow(await consent(browser, hand.authorizationUrl(challenge)), CLIENT_REDIRECT);
  const code = new URL(location!).searchParams.get('code')!;
  return { code, verifier, browser };
}

async function tokens(hand: HandClient) {
  const { code, verifier } = await codeFor(hand);
  const response = await hand.token({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: CLIENT_REDIRECT,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token: string; expires_in: number };
}

/** Through Miniflare, which lets a test send any Host (a URL of another name reaches the same Worker). */
const dispatch = (request: Request) => signInWorker.worker.fetch(request, undefined as never, undefined as never);

/** A discover request to `url`, carrying `token` as its bearer token when there is one. */
const discoverRequest = (url: string, token: string | undefined) =>
  new Request(url, {
    method: 'POST',
    headers: mcpHeaders('server/discover', undefined, token ? { Authorization: `Bearer ${token}` } : {}),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } }),
  });

const mcpDiscover = (token: string | undefined, url = `${origin}/mcp`) => dispatch(discoverRequest(url, token));

describe('the authorization request', () => {
  it('is refused on a page of its own, never redirected, when the redirect URI was not registered', async () => {
    const hand = await client();
    const { challenge } = await pkce();
    const response = await new Browser().request(
      hand.authorizationUrl(challenge, { redirect_uri: 'http://127.0.0.1:9/elsewhere' }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('Location')).toBeNull();
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
  });

  it('without a PKCE challenge goes back to the client as invalid_request, with iss', async () => {
    const hand = await client();
    const response = await new Browser().request(
      hand.authorizationUrl('', { code_challenge: null, code_challenge_method: null }),
    );
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get('Location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CLIENT_REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('iss')).toBe(origin);
  });

  it('with the plain PKCE method goes back to the client as invalid_request (MCP requires S256)', async () => {
    const hand = await client();
    const { verifier } = await pkce();
    const response = await new Browser().request(hand.authorizationUrl(verifier, { code_challenge_method: 'plain' }));
    expect(new URL(response.headers.get('Location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('for another resource goes back to the client as invalid_target', async () => {
    const hand = await client();
    const { challenge } = await pkce();
    const response = await new Browser().request(
      hand.authorizationUrl(challenge, { resource: 'https://other.example/mcp' }),
    );
    expect(new URL(response.headers.get('Location')!).searchParams.get('error')).toBe('invalid_target');
  });
});

describe('the consent page', () => {
  it('says who asks, escaped, and cannot be framed; its binding cookie is __Host-', async () => {
    const hand = new HandClient(origin);
    const registered = await fetch(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: '<img src=x onerror=alert(1)>"Evil"',
        redirect_uris: [CLIENT_REDIRECT],
        token_endpoint_auth_method: 'none',
      }),
    });
    hand.clientId = ((await registered.json()) as { client_id: string }).client_id;
    const { challenge } = await pkce();
    const page = await new Browser().request(hand.authorizationUrl(challenge));
    const html = await page.text();
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;&#34;Evil&#34;');
    expect(html).not.toContain('<img');
    expect(html).toContain('id="loopback-warning"'); // the redirect goes to this computer (127.0.0.1)
    expect(page.headers.get('X-Frame-Options')).toBe('DENY');
    const csp = page.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(page.headers.getSetCookie()).toEqual([expect.stringMatching(/^__Host-oauth-consent-[^=]+=.*; Secure/i)]);
    expect(page.headers.getSetCookie()[0]).toMatch(/HttpOnly/i);
  });

  it("refuses a decision posted without the browser's binding cookie", async () => {
    const hand = await client();
    const { challenge } = await pkce();
    const page = await new Browser().request(hand.authorizationUrl(challenge));
    const handle = consentHandle(await page.text());
    const forged = await new Browser().request(`${origin}/authorize`, {
      form: { handle, decision: 'approve' },
      origin,
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('Location')).toBeNull();
  });

  it('Deny sends the client access_denied, with its state and iss', async () => {
    const hand = await client();
    const { challenge } = await pkce();
    const browser = new Browser();
    const page = await browser.request(hand.authorizationUrl(challenge));
    const denied = await browser.request(`${origin}/authorize`, {
      form: { handle: consentHandle(await page.text()), decision: 'deny' },
      origin,
    });
    expect(denied.status).toBe(302);
    const back = new URL(denied.headers.get('Location')!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'client-state',
      iss: origin,
    });
  });

  it('remembered, is not shown again to the same browser for the same client', async () => {
    const hand = await client();
    const browser = new Browser();
    const { challenge } = await pkce();
    const first = await consent(browser, hand.authorizationUrl(challenge), { remember: 'on' });
    expect(first.headers.get('Location')).toMatch(new RegExp(`^${providers.githubUrl}/login/oauth/authorize`));
    const again = await browser.request(hand.authorizationUrl(challenge));
    expect(again.status).toBe(302);
    expect(again.headers.get('Location')).toMatch(new RegExp(`^${providers.githubUrl}/login/oauth/authorize`));
    const otherBrowser = await new Browser().request(hand.authorizationUrl(challenge));
    expect(otherBrowser.status).toBe(200);
  });

  it('refuses a post from a page of another origin before the authorization server sees it (the Origin allowlist wraps it), and logs it', async () => {
    const response = await fetch(`${origin}/authorize`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'handle=x&decision=approve',
    });
    expect(response.status).toBe(403);
    await expect
      .poll(() =>
        signInWorker.worker
          .logs()
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((entry) => entry['url.path'] === '/authorize' && entry['http.response.status_code'] === 403),
      )
      .toHaveLength(1);
  });
});

describe('the callback', () => {
  it('refuses its state replayed', async () => {
    const hand = await client();
    const browser = new Browser();
    const { challenge } = await pkce();
    const toProvider = await consent(browser, hand.authorizationUrl(challenge));
    const atProvider = await browser.request(toProvider.headers.get('Location')!);
    const callbackUrl = atProvider.headers.get('Location')!;
    expect((await browser.request(callbackUrl)).status).toBe(302);
    const replayed = await browser.request(callbackUrl);
    expect(replayed.status).toBe(400);
  });

  it('refuses a state from another browser', async () => {
    const hand = await client();
    const { challenge } = await pkce();
    const toProvider = await consent(new Browser(), hand.authorizationUrl(challenge));
    const other = new Browser();
    const atProvider = await other.request(toProvider.headers.get('Location')!);
    const stolen = await other.request(atProvider.headers.get('Location')!);
    expect(stolen.status).toBe(400);
    expect(stolen.headers.get('Location')).toBeNull();
  });
});

describe('the token endpoint', () => {
  it('refuses a code with the wrong PKCE verifier', async () => {
    const hand = await client();
    const { code } = await codeFor(hand);
    const response = await hand.token({
      grant_type: 'authorization_code',
      code,
      code_verifier: (await pkce()).verifier,
      redirect_uri: CLIENT_REDIRECT,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a token for another resource', async () => {
    const hand = await client();
    const { code, verifier } = await codeFor(hand);
    const response = await hand.token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: CLIENT_REDIRECT,
      resource: 'https://other.example/mcp',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_target' });
  });

  it('revokes the whole grant when a code is replayed (OAuth 2.1 4.1.2)', async () => {
    const hand = await client();
    const { code, verifier } = await codeFor(hand);
    const exchange = () =>
      hand.token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CLIENT_REDIRECT });
    const first = await exchange();
    const { access_token } = (await first.json()) as { access_token: string };
    expect((await mcpDiscover(access_token)).status).toBe(200);
    expect((await exchange()).status).toBe(400);
    expect((await mcpDiscover(access_token)).status).toBe(401);
  });

  it('refuses a refresh token once its successor has been used', async () => {
    const hand = await client();
    const { refresh_token: first } = await tokens(hand);
    const refresh = (token: string) => hand.token({ grant_type: 'refresh_token', refresh_token: token });
    const second = ((await (await refresh(first)).json()) as { refresh_token: string }).refresh_token;
    expect((await refresh(second)).status).toBe(200);
    const reused = await refresh(first);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('/mcp', () => {
  it('answers 401 pointing at metadata named by AUTH_RESOURCE, whatever the Host says', async () => {
    const refused = await mcpDiscover(undefined, 'http://evil.example/mcp');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('WWW-Authenticate')).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = await dispatch(new Request('http://evil.example/.well-known/oauth-protected-resource/mcp'));
    expect(await metadata.json()).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] });
  });

  it("takes the authorization server's own token and refuses any other", async () => {
    const { access_token } = await tokens(await client());
    expect((await mcpDiscover(access_token)).status).toBe(200);
    const [user, grant] = access_token.split(':');
    const forged = await mcpDiscover(`${user}:${grant}:not-the-secret`);
    expect(forged.status).toBe(401);
    expect(forged.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
  });
});

describe("the caller's expiry: the access token's own, never the upstream's", () => {
  it('is when the token the client presented expires, though GitHub’s own tokens never do, and a listen stream is held to it', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { access_token, expires_in } = await tokens(await client());
    const after = Math.ceil(Date.now() / 1000);
    const call = (method: string, params: Record<string, unknown>, name?: string) =>
      dispatch(
        new Request(`${origin}/mcp`, {
          method: 'POST',
          headers: mcpHeaders(method, name, { Authorization: `Bearer ${access_token}` }),
          body: JSON.stringify({ jsonrpc: '2.0', id: 'expiring', method, params: { ...params, _meta: meta() } }),
        }),
      );
    const whoami = (await (await call('tools/call', { name: 'whoami', arguments: {} }, 'whoami')).json()) as {
      result: { structuredContent: { caller: { expiresAt?: number; props: { expiresAt?: number } } } };
    };
    const { caller } = whoami.result.structuredContent;
    // The upstream (a GitHub OAuth app) gave a token that never expires: its props say none.
    expect(caller.props.expiresAt).toBeUndefined();
    expect(caller.expiresAt).toBeGreaterThanOrEqual((before + expires_in) * 1000);
    expect(caller.expiresAt).toBeLessThanOrEqual((after + expires_in) * 1000);
    // The library allows no lifetime under 60 s, so the stream's end at expiry is seen in the
    // modes whose tokens a test can make short (jwt, access, introspect; e.g.
    // test/http/caller-lists.test.ts): here, a stream opened with this token stays open, as it does.
    const stream = await call('subscriptions/listen', { notifications: {} });
    expect(stream.status).toBe(200);
    await stream.body!.cancel();
  });
});

describe("the scopes a person grants (issue 28): the client's requested scopes this server offers, as far as the person ticked them", () => {
  /** The whole flow with the consent form posted with `ticked` (and the page's own hidden fields); the token answer's scope. */
  async function grantedScope(
    at: string,
    authorizationParams: Record<string, string>,
    ticked: string[],
  ): Promise<string | undefined> {
    const hand = await new HandClient(at).register();
    const { verifier, challenge } = await pkce();
    const browser = new Browser();
    const page = await browser.request(hand.authorizationUrl(challenge, authorizationParams));
    expect(page.status).toBe(200);
    const html = await page.text();
    const hidden = Object.fromEntries(
      [...html.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [
        name!,
        value!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
      ]),
    );
    const toProvider = await browser.request(`${at}/authorize`, {
      form: { ...hidden, decision: 'approve', scope: ticked },
      origin: at,
    });
    const { location } = await browser.follow(toProvider, CLIENT_REDIRECT);
    const code = new URL(location!).searchParams.get('code')!;
    const response = await hand.token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: CLIENT_REDIRECT,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { scope?: string }).scope;
  }

  it('grants no scope a person adds to the form when AUTH_SCOPES offers none', async () => {
    expect((await grantedScope(origin, {}, ['admin', 'repo:write'])) ?? '').toBe('');
  });

  it('grants no scope the client did not ask for, and none the person unticked, when AUTH_SCOPES offers some', async () => {
    const scoped = await startSignInWorker(providers, 'github', { AUTH_SCOPES: 'repo:read repo:write admin' });
    try {
      expect(await grantedScope(scoped.origin, { scope: 'repo:read repo:write' }, ['repo:read', 'admin'])).toBe(
        'repo:read',
      );
      expect(await grantedScope(scoped.origin, { scope: 'repo:read repo:write' }, ['repo:read', 'repo:write'])).toBe(
        'repo:read repo:write',
      );
    } finally {
      await scoped.worker.dispose();
    }
  });
});

describe('hostile input (issue 28): refused as the RFCs say, never a 5xx, never an error in the log', () => {
  /** What the Worker logs at error level while `run` runs: input alone must cause none. */
  async function errorsDuring(run: () => Promise<void>): Promise<string[]> {
    const before = signInWorker.worker.errorLogs().length;
    await run();
    return signInWorker.worker.errorLogs().slice(before);
  }
  const long = 'a'.repeat(600);

  it('/mcp answers a malformed token of any length with 401 invalid_token, not 503', async () => {
    const errors = await errorsDuring(async () => {
      for (const token of [
        `${long}:b:c`,
        `github-1:${'g'.repeat(600)}:s`,
        `github-1:g:${'s'.repeat(900)}`,
        'no-colons-at-all',
      ]) {
        const response = await mcpDiscover(token);
        expect(response.status, token.slice(0, 20)).toBe(401);
        expect(response.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
        expect(response.headers.get('Retry-After')).toBeNull();
      }
    });
    expect(errors).toEqual([]);
  });

  it('the token endpoint answers long codes, refresh tokens and client ids with invalid_grant or invalid_client, and revocation of a long token with 200', async () => {
    const hand = await client();
    const errors = await errorsDuring(async () => {
      for (const grant of [
        {
          grant_type: 'authorization_code',
          code: `${long}:b:c`,
          code_verifier: 'v'.repeat(43),
          redirect_uri: CLIENT_REDIRECT,
        },
        { grant_type: 'refresh_token', refresh_token: `${long}:b:c` },
      ] as Record<string, string>[]) {
        const response = await hand.token(grant);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
      }
      // RFC 7009 2.2: an invalid token is no error to revoke.
      expect((await hand.token({ token: `${long}:b:c` })).status).toBe(200);
      const stranger = await fetch(`${origin}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: long, grant_type: 'refresh_token', refresh_token: 'a:b:c' }),
      });
      expect(stranger.status).toBe(401);
      expect(await stranger.json()).toMatchObject({ error: 'invalid_client' });
    });
    expect(errors).toEqual([]);
  });

  it('GET /authorize with a long client_id is refused on a page, not 500', async () => {
    const errors = await errorsDuring(async () => {
      const response = await new Browser().request(
        `${origin}/authorize?response_type=code&client_id=${long}&redirect_uri=${encodeURIComponent(CLIENT_REDIRECT)}&code_challenge=x&code_challenge_method=S256`,
      );
      expect(response.status).toBe(400);
      expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    });
    expect(errors).toEqual([]);
  });
});

describe('dynamic client registration (issue 28): what is kept is bounded, and a limiter of its own comes before any write', () => {
  const base = { redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none' };

  it("refuses a body larger than a client's metadata with 413, and a client_name longer than the consent page shows with invalid_client_metadata", async () => {
    const huge = await register({ ...base, client_name: 'n'.repeat(1_000_000) });
    expect(huge.status).toBe(413);
    const long = await register({ ...base, client_name: 'n'.repeat(201) });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it('drops the fields the consent page never uses: contacts, logo and policy URIs, their translations', async () => {
    const response = await register({
      ...base,
      client_name: 'Kept',
      contacts: Array.from({ length: 200 }, (_, i) => `c${i}@example.com`),
      'client_name#fr': 'x'.repeat(2000),
      'tos_uri#de': 'https://example.com/tos',
      logo_uri: 'https://example.com/logo.png',
    });
    expect(response.status).toBe(201);
    const registered = (await response.json()) as Record<string, unknown>;
    expect(registered.client_name).toBe('Kept');
    for (const dropped of ['contacts', 'client_name#fr', 'tos_uri#de', 'logo_uri'])
      expect(registered[dropped], dropped).toBeUndefined();
  });

  it('stores a registered client for 7 days, not 90: one that never completes a grant is gone by then', async () => {
    const { client_id: clientId } = (await (await register({ ...base, client_name: 'Short-lived' })).json()) as {
      client_id: string;
    };
    const kv = (await signInWorker.worker.env()).OAUTH_KV as KVNamespace;
    const [key] = (await kv.list({ prefix: `client:${clientId}` })).keys;
    expect(key?.expiration).toBeGreaterThan(Date.now() / 1000 + 7 * 86400 - 120);
    expect(key?.expiration).toBeLessThan(Date.now() / 1000 + 7 * 86400 + 120);
  });

  it.each([
    [
      'more redirect URIs than a client needs',
      { redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:9/cb${i}`) },
    ],
    ['a redirect URI longer than 512 characters', { redirect_uris: [`http://127.0.0.1:9/${'p'.repeat(520)}`] }],
    // issue 28, defect 9: the host would reach the consent page's Content-Security-Policy.
    ['a redirect URI whose host has a ;', { redirect_uris: ['https://x;script-src/cb'] }],
    ['a redirect URI whose host has a ,', { redirect_uris: ['https://x,y.example/cb'] }],
  ])('refuses %s with invalid_redirect_uri', async (_, metadata) => {
    const response = await register({ ...base, client_name: 'Client', ...metadata });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('counts registrations and consent pages per address with SIGN_IN_RATE_LIMITER: past its limit, 429 and nothing stored', async () => {
    const limited = await startSignInWorker(providers, 'github', {}, signInLimiter(3));
    try {
      const kv = (await limited.worker.env()).OAUTH_KV as KVNamespace;
      const stored = async (prefix: string) => (await kv.list({ prefix })).keys.length;
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await register({ ...base, client_name: `Client ${i}` }, limited.origin)).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      expect(await stored('client:')).toBe(3);
      const hand = new HandClient(limited.origin);
      hand.clientId =
        ((await (await register({ ...base, client_name: 'x' }, limited.origin)).json()) as { client_id?: string })
          .client_id ?? '';
      expect(hand.clientId).toBe(''); // still limited
    } finally {
      await limited.worker.dispose();
    }
  });

  it('counts consent pages per address too, apart from registrations, and writes nothing for one past the limit', async () => {
    const limited = await startSignInWorker(providers, 'github', {}, signInLimiter(2));
    try {
      const kv = (await limited.worker.env()).OAUTH_KV as KVNamespace;
      const stored = async (prefix: string) => (await kv.list({ prefix })).keys.length;
      const hand = await new HandClient(limited.origin).register(); // registrations count apart from consent pages
      const { challenge } = await pkce();
      for (let i = 0; i < 2; i++)
        expect((await new Browser().request(hand.authorizationUrl(challenge))).status).toBe(200);
      const before = await stored('transaction:');
      const refused = await new Browser().request(hand.authorizationUrl(challenge));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('Retry-After')).toBe('60');
      expect(await stored('transaction:')).toBe(before);
    } finally {
      await limited.worker.dispose();
    }
  });
});

describe('the authorization server metadata (RFC 8414)', () => {
  it('names this Worker as issuer, PKCE S256, RFC 9207 iss, registration (DCR and CIMD) and refresh tokens', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      // wrangler.toml has global_fetch_strictly_public, which keeps the document's fetch off private addresses
      client_id_metadata_document_supported: true,
    });
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
  });
});

describe("the grant store failing (issue 28): 503 with Retry-After naming it, never the router's 500", () => {
  it('answers /mcp, the token endpoint, registration and the consent page 503 with Retry-After, and logs an error naming OAUTH_KV', async () => {
    // A binding that is no KV namespace: every read and write of the library throws, as KV down does.
    const broken = await startSignInWorker(
      providers,
      'github',
      {},
      { kvNamespaces: [], serviceBindings: { OAUTH_KV: () => new Response('down', { status: 500 }) } },
    );
    try {
      const at = broken.origin;
      const mcp = await fetch(discoverRequest(`${at}/mcp`, 'github-1:abcdefgh:secret'));
      expect(mcp.status).toBe(503);
      expect(mcp.headers.get('Retry-After')).toBe('5');
      expect(((await mcp.json()) as { error: { message: string } }).error.message).toContain('grant store');
      const token = await fetch(`${at}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'client_id=abc&grant_type=refresh_token&refresh_token=a:b:c',
      });
      expect(token.status).toBe(503);
      expect(token.headers.get('Retry-After')).toBe('5');
      expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });
      const registered = await register(
        { redirect_uris: [CLIENT_REDIRECT], client_name: 'x', token_endpoint_auth_method: 'none' },
        at,
      );
      expect(registered.status).toBe(503);
      const page = await new Browser().request(
        `${at}/authorize?response_type=code&client_id=abc&redirect_uri=${encodeURIComponent(CLIENT_REDIRECT)}`,
      );
      expect(page.status).toBe(503);
      expect(page.headers.get('Retry-After')).toBe('5');
      expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
      // workerd adds lines of its own about the binding that is no KV namespace; ours name the store, and nothing reached the router's last resort.
      expect(
        broken.worker.errorLogs().filter((line) => line.includes('the grant store (OAUTH_KV) failed')).length,
      ).toBeGreaterThanOrEqual(4);
      expect(broken.worker.errorLogs().filter((line) => line.includes('unhandled'))).toEqual([]);
    } finally {
      await broken.worker.dispose();
    }
  });
});

describe('a deployment without its KV namespace', () => {
  it('serves nothing without SIGN_IN_RATE_LIMITER either: 500 naming it', async () => {
    const bare = await startSignInWorker(providers, 'github', {}, { ratelimits: LIMITERS });
    try {
      const response = await fetch(`${bare.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(500);
      expect(((await response.json()) as { error: { data: unknown } }).error.data).toEqual({
        setting: 'SIGN_IN_RATE_LIMITER',
      });
    } finally {
      await bare.worker.dispose();
    }
  });

  it("serves nothing: 500 naming OAUTH_KV, on /mcp and on the authorization server's routes", async () => {
    const bare = await startSignInWorker(providers, 'github', {}, { kvNamespaces: [] });
    try {
      for (const path of ['/mcp', '/authorize', '/oauth/token']) {
        const response = await fetch(`${bare.origin}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        });
        expect(response.status).toBe(500);
        expect(((await response.json()) as { error: { data: unknown } }).error.data).toEqual({ setting: 'OAUTH_KV' });
      }
    } finally {
      await bare.worker.dispose();
    }
  });
});
