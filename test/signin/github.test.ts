/**
 * The sign-in configuration end to end (docs/sign-in.md), in workerd: the official client finds
 * the authorization server from the 401, registers (DCR), sends the user to authorize; the test's
 * browser approves the consent page, signs in at the GitHub-shaped stand-in and comes back
 * through the callback; the client gets tokens and calls the tool that acts as the user, which
 * reaches the stand-in's API with the user's GitHub token. Then refresh, and a revocation at
 * GitHub that sends the client back to authorize.
 */
import { createServer } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../kit';
import { CLIENT_ID, CLIENT_SECRET, GITHUB_USER, startLoginProviders, type LoginProviders } from '../support/loginProviders';
import { Browser, CLIENT_REDIRECT, consentHandle, MemoryOAuthClient } from '../support/signInClient';

let providers: LoginProviders;
let worker: WorkerInWorkerd;
let origin: string;

/** A free loopback port: the Worker's resource identifier (AUTH_RESOURCE) names it before the Worker starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  providers = await startLoginProviders();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  worker = await startInWorkerd({
    config: 'wrangler.oauth.toml',
    vars: {
      AUTH_MODE: 'signin',
      AUTH_RESOURCE: `${origin}/mcp`,
      LOGIN_PROVIDER: 'github',
      LOGIN_CLIENT_ID: CLIENT_ID,
      LOGIN_GITHUB_URL: providers.githubUrl,
      LOGIN_GITHUB_API_URL: providers.githubApiUrl,
      REQUEST_LOGS: 'off',
    },
    secrets: { LOGIN_CLIENT_SECRET: CLIENT_SECRET, MCP_STATE_SECRET: 'a-state-secret-for-the-sign-in-tests-only' },
    miniflare: { port } as never,
  });
}, 120_000);

afterAll(async () => {
  await worker?.dispose();
  await providers?.close();
});

/** The official client, on `oauth`, connected or refused with UnauthorizedError. */
async function connect(oauth: MemoryOAuthClient): Promise<Client | UnauthorizedError> {
  const client = new Client({ name: 'sign-in-e2e', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: oauth }));
    return client;
  } catch (error) {
    if (error instanceof UnauthorizedError) return error;
    throw error;
  }
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
async function signIn(oauth = new MemoryOAuthClient(), browser = new Browser()) {
  const refused = await connect(oauth);
  expect(refused).toBeInstanceOf(UnauthorizedError);
  const back = await approve(browser, oauth.authorizationUrl!);
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: oauth });
  await transport.finishAuth(back.searchParams);
  return { oauth, browser, back };
}

describe('sign-in with GitHub', () => {
  it('takes the official client from a 401 to a tool that calls GitHub with the user\'s token', async () => {
    const { oauth, browser, back } = await signIn();
    // RFC 9207: the authorization response names the issuer, which is this Worker (AUTH_RESOURCE's origin).
    expect(back.searchParams.get('iss')).toBe(origin);
    expect(oauth.client?.client_id).toBeTruthy(); // registered dynamically (RFC 7591)
    expect(oauth.saved?.refresh_token).toBeTruthy();

    const client = await connect(oauth);
    if (!(client instanceof Client)) throw client;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('my_repositories');
    const before = providers.received.length;
    const result = await client.callTool({ name: 'my_repositories', arguments: { count: 5 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ repositories: [expect.objectContaining({ name: `${GITHUB_USER.login}/secret-project`, private: true })] });
    const call = providers.received.slice(before).find((r) => r.path === '/github-api/user/repos');
    expect(call?.authorization).toMatch(/^Bearer gho_/);
    await client.close();

    console.log(`sign-in flow, the browser's requests:\n${browser.steps.map((s) => `  ${s.method} ${s.url.replace(/\?.*/, '?…')} → ${s.status}`).join('\n')}`);
  });
});
