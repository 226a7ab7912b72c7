/**
 * The example tool that acts as the signed-in user (`my_repositories`, src/tools/my-repositories.ts)
 * with sign-in on (test/worker.ts) end to end (node_modules/mcp-worker-framework/docs/sign-in.md), in workerd: the official client finds
 * the authorization server from the 401, registers (DCR), sends the user to authorize; the test's
 * browser approves the consent page, signs in at the GitHub-shaped stand-in and comes back
 * through the callback; the client gets tokens and calls the tool that acts as the user, which
 * reaches the stand-in's API with the user's GitHub token. Then refresh, a revocation at GitHub
 * that sends the client back to authorize, and GitHub down during a refresh.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  CLIENT_REDIRECT,
  consentHandle,
  flowLines,
  GITHUB_USER,
  type LoginProviders,
  loggingFetch,
  MemoryOAuthClient,
  type SignInWorker,
  type Step,
  startLoginProviders,
  startSignInWorker,
} from 'mcp-worker-framework/testing/signin';

const log: Step[] = [];
let providers: LoginProviders;
let signInWorker: SignInWorker;
let origin: string;

beforeAll(async () => {
  providers = await startLoginProviders(log);
  signInWorker = await startSignInWorker(providers, 'github', {}, {}, 'test/wrangler.toml');
  origin = signInWorker.origin;
}, 120_000);

afterAll(async () => {
  await signInWorker?.worker.dispose();
  await providers?.close();
});

const transport = (oauth: MemoryOAuthClient, steps?: Step[]) =>
  new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
    authProvider: oauth,
    ...(steps ? { fetch: loggingFetch(steps) } : {}),
  });

/** The official client, on `oauth`, connected; or the UnauthorizedError that says it must send the user to authorize. */
async function connect(oauth: MemoryOAuthClient, steps?: Step[]): Promise<Client | UnauthorizedError> {
  const client = new Client({ name: 'sign-in-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  try {
    await client.connect(transport(oauth, steps));
    return client;
  } catch (error) {
    if (error instanceof UnauthorizedError) return error;
    throw error;
  }
}

async function connected(oauth: MemoryOAuthClient, steps?: Step[]): Promise<Client> {
  const client = await connect(oauth, steps);
  if (!(client instanceof Client)) throw client;
  return client;
}

/** The user approves the consent page and signs in upstream; the client's callback URL comes back. */
async function approve(browser: Browser, authorizationUrl: URL): Promise<URL> {
  const page = await browser.request(authorizationUrl.href);
  expect(page.status).toBe(200);
  const handle = consentHandle(await page.text());
  const decided = await browser.request(`${origin}/authorize`, { form: { handle, decision: 'approve' }, origin });
  const { location } = await browser.follow(decided, CLIENT_REDIRECT);
  if (!location) throw new Error(`the flow did not reach the client: ${JSON.stringify(browser.steps)}`);
  return new URL(location);
}

/** Signs in from scratch: the client's 401, the browser's approval, the client's token request. */
async function signIn(oauth = new MemoryOAuthClient(), steps?: Step[]) {
  expect(await connect(oauth, steps)).toBeInstanceOf(UnauthorizedError);
  const back = await approve(new Browser(steps), oauth.authorizationUrl!);
  await transport(oauth, steps).finishAuth(back.searchParams);
  return { oauth, back };
}

describe('sign-in with GitHub', () => {
  it("takes the official client from a 401 to a tool that calls GitHub with the user's token", async () => {
    const { oauth, back } = await signIn(new MemoryOAuthClient(), log);
    // RFC 9207: the authorization response names the issuer, this Worker (AUTH_RESOURCE's origin).
    expect(back.searchParams.get('iss')).toBe(origin);
    expect(oauth.client?.client_id).toBeTruthy(); // registered dynamically (RFC 7591)
    expect(oauth.saved?.refresh_token).toBeTruthy();

    const client = await connected(oauth, log);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('my_repositories');
    const before = providers.received.length;
    const result = await client.callTool({ name: 'my_repositories', arguments: { count: 5 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      repositories: [expect.objectContaining({ name: `${GITHUB_USER.login}/secret-project`, private: true })],
    });
    const call = providers.received.slice(before).find((r) => r.path === '/github-api/user/repos');
    expect(call?.authorization).toMatch(/^Bearer gho_/);
    await client.close();

    // Every request of the flow, in order, with its status: the closing note's record.
    const lines = flowLines(log, { '<worker>': origin, '<github>': providers.githubUrl.replace('/github', '') });
    console.log(`the sign-in flow, from a real run:\n${lines.join('\n')}`);
    expect(lines.slice(0, 4)).toEqual([
      'client  POST <worker>/mcp (server/discover) → 401',
      'client  GET <worker>/.well-known/oauth-protected-resource/mcp → 200',
      'client  GET <worker>/.well-known/oauth-authorization-server → 200',
      'client  POST <worker>/oauth/register → 201',
    ]);
    expect(lines).toContain('browser POST <worker>/authorize → 302');
    expect(lines).toContain('client  POST <worker>/oauth/token → 200');
  });

  it('refreshes: a client whose access token is refused gets a new one with its refresh token, and the call goes through', async () => {
    const { oauth } = await signIn();
    const first = oauth.saved!;
    oauth.saved = { ...first, access_token: 'not-a-token-of-this-server' };
    const client = await connected(oauth);
    const result = await client.callTool({ name: 'my_repositories', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(oauth.saved?.access_token).not.toBe(first.access_token);
    expect(oauth.saved?.refresh_token).not.toBe(first.refresh_token); // rotated (OAuth 2.1 4.3.1)
    expect(oauth.authorizations).toBe(1); // no new sign-in
    await client.close();
  });

  it('sends the client back to authorize when the user revokes the app at GitHub', async () => {
    const { oauth } = await signIn();
    const client = await connected(oauth);
    providers.revokeAll();
    // The tool's answer: 401 with the challenge that points the client at the metadata (RFC 6750 3).
    const call = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${oauth.saved!.access_token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'my_repositories',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'my_repositories',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(call.status).toBe(401);
    expect(call.headers.get('WWW-Authenticate')).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
    );
    // GitHub refuses the stored token: 401; the client's refresh finds the grant refused upstream
    // (invalid_grant, which revokes it), so the client sends the user to authorize again.
    await expect(client.callTool({ name: 'my_repositories', arguments: {} })).rejects.toThrow();
    expect(oauth.authorizations).toBe(2);
    const refresh = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: oauth.saved?.refresh_token ?? 'revoked',
        client_id: oauth.client!.client_id,
      }),
    });
    expect(refresh.status).toBe(400);
    await client.close();
  });

  it("with a GitHub App's expiring tokens, refreshes the GitHub token too, and a refused GitHub refresh token sends the client back", async () => {
    providers.githubRefreshTokens = true;
    try {
      const { oauth } = await signIn();
      oauth.saved = { ...oauth.saved!, access_token: 'expired' };
      const before = providers.received.length;
      const client = await connected(oauth);
      expect((await client.callTool({ name: 'my_repositories', arguments: {} })).isError).toBeFalsy();
      const upstream = providers.received.slice(before);
      // The Worker refreshed at GitHub (grant_type=refresh_token), then called the API with the new GitHub token.
      expect(upstream.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'POST /github/login/oauth/access_token 200',
        'GET /github-api/user/repos 200',
      ]);

      providers.revokeAll();
      oauth.saved = { ...oauth.saved!, access_token: 'expired' };
      await expect(client.callTool({ name: 'my_repositories', arguments: {} })).rejects.toThrow();
      expect(oauth.authorizations).toBe(2);
      await client.close();
    } finally {
      providers.githubRefreshTokens = false;
    }
  });

  it('keeps the grant when GitHub is down during a refresh: 503 with Retry-After, and the same refresh token works once it is back', async () => {
    const { oauth } = await signIn();
    const refresh = () =>
      fetch(`${origin}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: oauth.saved!.refresh_token!,
          client_id: oauth.client!.client_id,
        }),
      });
    providers.down = true;
    try {
      const outage = await refresh();
      expect(outage.status).toBe(503);
      expect(outage.headers.get('Retry-After')).toBe('5');
      expect(await outage.json()).toMatchObject({ error: 'temporarily_unavailable' });
    } finally {
      providers.down = false;
    }
    const back = await refresh();
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({
      token_type: expect.stringMatching(/^bearer$/i),
      refresh_token: expect.any(String),
    });
  });
});
