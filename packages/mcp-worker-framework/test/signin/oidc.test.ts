/**
 * Signing in with any OpenID Connect provider (LOGIN_PROVIDER = "oidc"), in workerd, against a
 * loopback issuer found by discovery: the official client signs in end to end; the ID token's
 * `nonce` and the callback's `iss` (RFC 9207) are checked; a `sub` with ':' becomes a userId
 * without one; the provider down is a 503 with Retry-After, not a broken page.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  CLIENT_REDIRECT,
  consentHandle,
  HandClient,
  type LoginProviders,
  MemoryOAuthClient,
  pkce,
  startLoginProviders,
} from '../../src/testing/signin';
import { startSignInWorker, type SignInWorker } from '../support/signInWorker';

let providers: LoginProviders;
let signInWorker: SignInWorker;
let origin: string;

beforeAll(async () => {
  providers = await startLoginProviders();
  signInWorker = await startSignInWorker(providers, 'oidc');
  origin = signInWorker.origin;
}, 120_000);

afterAll(async () => {
  await signInWorker?.worker.dispose();
  await providers?.close();
});

/** By hand to the client's callback: where the flow sent the browser back to the client. */
async function clientCallback(hand: HandClient): Promise<URL> {
  const browser = new Browser();
  const { challenge } = await pkce();
  const page = await browser.request(hand.authorizationUrl(challenge));
  const decided = await browser.request(`${origin}/authorize`, {
    form: { handle: consentHandle(await page.text()), decision: 'approve' },
    origin,
  });
  const { location } = await browser.follow(decided, CLIENT_REDIRECT);
  return new URL(location!);
}

describe('sign-in with OpenID Connect', () => {
  // First: the provider's metadata is fetched once per isolate, so this one runs before any other finds it.
  it('answers 503 with Retry-After while the provider cannot be discovered, and works once it can', async () => {
    const hand = await new HandClient(origin).register();
    const { challenge } = await pkce();
    providers.down = true;
    try {
      const down = await new Browser().request(hand.authorizationUrl(challenge));
      expect(down.status).toBe(503);
      expect(down.headers.get('Retry-After')).toBe('5');
    } finally {
      providers.down = false;
    }
    expect((await new Browser().request(hand.authorizationUrl(challenge))).status).toBe(200);
  });

  it('signs the official client in; the userId encodes the ":" of the provider\'s sub', async () => {
    const oauth = new MemoryOAuthClient();
    const client = new Client({ name: 'oidc-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const transport = () => new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: oauth });
    await expect(client.connect(transport())).rejects.toBeInstanceOf(UnauthorizedError);
    const browser = new Browser();
    const html = await (await browser.request(oauth.authorizationUrl!.href)).text();
    expect(html).toContain(`sign in with ${new URL(providers.oidcIssuer).host}`);
    const decided = await browser.request(`${origin}/authorize`, {
      form: { handle: consentHandle(html), decision: 'approve' },
      origin,
    });
    const { location } = await browser.follow(decided, CLIENT_REDIRECT);
    await transport().finishAuth(new URL(location!).searchParams);
    // The library's tokens are userId:grantId:secret: the sub `tenant:42:user` is encoded, so the token has three parts.
    expect(oauth.saved!.access_token.split(':')).toHaveLength(3);
    expect(oauth.saved!.access_token.startsWith('oidc-tenant%3A42%3Auser:')).toBe(true);
    const connected = new Client({ name: 'oidc-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await connected.connect(transport());
    expect((await connected.listTools()).tools.length).toBeGreaterThan(0);
    await connected.close();
  });

  it('refuses an ID token whose nonce is not the one sent: the client gets access_denied', async () => {
    providers.oidcWrongNonce = true;
    try {
      const back = await clientCallback(await new HandClient(origin).register());
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('code')).toBeNull();
    } finally {
      providers.oidcWrongNonce = false;
    }
  });

  it('refuses a callback whose iss is another issuer (RFC 9207): the client gets access_denied', async () => {
    providers.oidcCallbackIss = 'http://127.0.0.1:1/another-issuer';
    try {
      const back = await clientCallback(await new HandClient(origin).register());
      expect(back.searchParams.get('error')).toBe('access_denied');
    } finally {
      providers.oidcCallbackIss = undefined;
    }
  });
});
