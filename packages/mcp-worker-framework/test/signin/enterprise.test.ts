/**
 * Enterprise sign-in (issue 47; extensions/auth/enterprise-managed-authorization), in workerd:
 * loopback identity providers over TLS (test/support/enterpriseIdp.ts) issue ID-JAGs; the
 * official client (`CrossAppAccessProvider`) presents one at the token endpoint with the RFC 7523
 * JWT-bearer grant and calls a tool as the person; by hand, each assertion the grant's rules
 * refuse gets the OAuth error they name, never a 5xx, and an identity provider whose keys cannot
 * be fetched is a 503 with Retry-After. Two presentations of one assertion at once: one token.
 */
import { Client, CrossAppAccessProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_REDIRECT, type LoginProviders, startLoginProviders } from '../../src/testing/signin';
import { type EnterpriseIdps, type IdentityProvider, startEnterpriseIdps } from '../support/enterpriseIdp';
import { requestsTo } from '../support/mcp';
import { type SignInWorker, startSignInWorker } from '../support/signInWorker';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const EXTENSION = 'io.modelcontextprotocol/enterprise-managed-authorization';

let login: LoginProviders;
let idps: EnterpriseIdps;
let acme: IdentityProvider;
let globex: IdentityProvider;
let unlisted: IdentityProvider;
let down: IdentityProvider;
let signIn: SignInWorker;
let origin: string;
let resource: string;

beforeAll(async () => {
  [login, idps] = await Promise.all([startLoginProviders(), startEnterpriseIdps()]);
  [acme, globex, unlisted, down] = await Promise.all([
    idps.provider('acme'),
    idps.provider('globex'),
    idps.provider('unlisted'),
    idps.provider('down'),
  ]);
  const trusted = [acme, globex, down].map(({ issuer, jwksUrl }) => ({ issuer, jwksUrl, algorithms: ['RS256'] }));
  signIn = await startSignInWorker(
    login,
    'github',
    { AUTH_SCOPES: 'mcp:read mcp:write', TEST_IDENTITY_PROVIDERS: JSON.stringify(trusted) },
    {},
    'test/fixtures/enterprise/wrangler.toml',
  );
  ({ origin, resource } = signIn);
}, 120_000);

afterAll(async () => {
  await signIn?.worker.dispose();
  await Promise.all([login?.close(), idps?.close()]);
});

/** A confidential client registered with the Worker (RFC 7591), allowed the JWT-bearer grant. */
async function registerClient(): Promise<{ clientId: string; clientSecret: string }> {
  const response = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Enterprise agent',
      redirect_uris: [CLIENT_REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', JWT_BEARER],
      response_types: ['code'],
    }),
  });
  expect(response.status).toBe(201);
  const { client_id: clientId, client_secret: clientSecret } = (await response.json()) as Record<string, string>;
  return { clientId: clientId!, clientSecret: clientSecret! };
}

let client: { clientId: string; clientSecret: string };
beforeAll(async () => {
  client = await registerClient();
});

/** The claims of an assertion for this Worker and `client`, as the identity provider's token exchange makes them. */
const forUs = (claims: JWTPayload = {}): JWTPayload => ({
  aud: origin,
  resource,
  client_id: client.clientId,
  scope: 'mcp:read',
  email: 'user@example.com',
  ...claims,
});

/** The token request of the grant (the extension's 5), the client authenticated with HTTP Basic. */
async function present(assertion: string, as = client, extra: Record<string, string> = {}) {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${btoa(`${as.clientId}:${as.clientSecret}`)}`,
    },
    body: new URLSearchParams({ grant_type: JWT_BEARER, assertion, ...extra }).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** `whoami` with the access token: the caller its handler received. */
async function whoami(accessToken: string) {
  const response = await fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${accessToken}`,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'whoami',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'whoami',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { structuredContent: { caller: Record<string, unknown> } } }).result
    .structuredContent.caller;
}

describe('enterprise sign-in (ID-JAG, RFC 7523 JWT-bearer grant)', () => {
  // First: the down provider's keys have never been fetched, so nothing of them is cached.
  it("answers 503 temporarily_unavailable with Retry-After, never invalid_grant, while the identity provider's keys cannot be fetched", async () => {
    const assertion = await down.idJag(forUs());
    down.down = true;
    try {
      const refused = await present(assertion);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('Retry-After')).toBe('5');
      expect(refused.body.error).toBe('temporarily_unavailable');
      expect(down.fetches).toBeGreaterThan(0);
    } finally {
      down.down = false;
    }
    // The outage did not spend the assertion: the client's retry of the same one gets its token.
    expect((await present(assertion)).status).toBe(200);
  });

  it('advertises the grant in the authorization server metadata and the extension in server/discover', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      string[]
    >;
    expect(metadata.grant_types_supported).toContain(JWT_BEARER);
    expect(metadata.authorization_grant_profiles_supported).toEqual(['urn:ietf:params:oauth:grant-profile:id-jag']);
    const { body } = await present(await acme.idJag(forUs()));
    const discover = await requestsTo(`${origin}/mcp`).post('server/discover', {
      headers: { Authorization: `Bearer ${body.access_token}` },
    });
    const { result } = (await discover.json()) as { result: { capabilities: { extensions: Record<string, object> } } };
    expect(result.capabilities.extensions[EXTENSION]).toEqual({});
  });

  it('signs the official client in with an ID-JAG: a person of their enterprise, scopes cut to what the assertion allows and the server offers, no refresh token', async () => {
    const asked: { authorizationServerUrl: string; resourceUrl: string }[] = [];
    const provider = new CrossAppAccessProvider({
      assertion: async (context) => {
        asked.push(context);
        // The identity provider allows more than this server offers: `admin` is no scope of it.
        return acme.idJag(forUs({ scope: 'mcp:read admin' }));
      },
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      expectedIssuer: origin,
    });
    const mcp = new Client({ name: 'ema-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider }));
    expect(asked[0]).toMatchObject({ authorizationServerUrl: origin, resourceUrl: resource });
    const tokens = provider.tokens()!;
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('mcp:read');
    const result = await mcp.callTool({ name: 'whoami', arguments: {} });
    const { caller } = result.structuredContent as { caller: Record<string, unknown> };
    expect(caller).toMatchObject({ kind: 'enterprise', issuer: acme.issuer, scopes: ['mcp:read'] });
    expect(caller.claims).toMatchObject({ iss: acme.issuer, sub: 'U019488227', email: 'user@example.com' });
    expect(String(caller.subject)).toMatch(/^enterprise-[0-9a-f]{32}-U019488227$/);
    await mcp.close();
  });

  it('namespaces the subject by issuer: one sub from two identity providers is two people', async () => {
    const [a, b] = await Promise.all(
      [acme, globex].map(async (idp) => {
        const { body } = await present(await idp.idJag(forUs({ sub: 'same-person' })));
        return (await whoami(String(body.access_token))).subject;
      }),
    );
    expect(a).toMatch(/^enterprise-[0-9a-f]{32}-same-person$/);
    expect(b).toMatch(/^enterprise-[0-9a-f]{32}-same-person$/);
    expect(a).not.toBe(b);
  });

  it('grants no scope this server does not offer, though the assertion allows it', async () => {
    const { status, body } = await present(await acme.idJag(forUs({ scope: 'mcp:read admin' })));
    expect(status).toBe(200);
    expect(body.scope).toBe('mcp:read');
  });

  it('grants no scope the assertion does not name', async () => {
    const { status, body } = await present(await acme.idJag(forUs({ scope: undefined })), client, {
      scope: 'mcp:read mcp:write',
    });
    expect(status).toBe(200);
    expect(body.scope).toBe('');
  });

  it.each<{ what: string; error: string; make: (idp: IdentityProvider) => Promise<string> | string }>([
    {
      what: 'for another audience',
      error: 'invalid_grant',
      make: (idp) => idp.idJag(forUs({ aud: 'https://as.example.com' })),
    },
    {
      what: 'for another resource',
      error: 'invalid_target',
      make: (idp) => idp.idJag(forUs({ resource: 'https://other.example.com/mcp' })),
    },
    {
      what: 'expired',
      error: 'invalid_grant',
      make: (idp) => idp.idJag(forUs({ iat: now() - 600, exp: now() - 300 })),
    },
    {
      what: 'issued to another client',
      error: 'invalid_grant',
      make: (idp) => idp.idJag(forUs({ client_id: 'another-client' })),
    },
    { what: 'from an issuer not listed', error: 'invalid_grant', make: () => unlisted.idJag(forUs()) },
    { what: 'with alg none', error: 'invalid_grant', make: (idp) => idp.unsigned(forUs()) },
    {
      what: 'signed HS256 with the RS256 public key',
      error: 'invalid_grant',
      make: (idp) => idp.hs256WithPublicKey(forUs()),
    },
    { what: 'without the ID-JAG typ', error: 'invalid_grant', make: (idp) => idp.idJag(forUs()).then(untyped) },
  ])('refuses an assertion $what with 400 $error', async ({ make, error }) => {
    const refused = await present(await make(acme));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(error);
    expect(refused.body.access_token).toBeUndefined();
  });

  it('refuses a replayed assertion with invalid_grant, and two presentations at once get one token', async () => {
    const once = await acme.idJag(forUs());
    expect((await present(once)).status).toBe(200);
    const replay = await present(once);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // Two at once: the library's KV marker can let both through; the assertion's Durable Object cannot.
    for (let round = 0; round < 3; round++) {
      const twice = await acme.idJag(forUs());
      const statuses = (await Promise.all([present(twice), present(twice)])).map(({ status }) => status).sort();
      expect(statuses).toEqual([200, 400]);
    }
  });

  it('requires the client to authenticate: a public client is refused with invalid_client', async () => {
    const response = await fetch(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [CLIENT_REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', JWT_BEARER],
      }),
    });
    const { client_id: publicId } = (await response.json()) as { client_id: string };
    const refused = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: JWT_BEARER,
        client_id: publicId,
        assertion: await acme.idJag(forUs({ client_id: publicId })),
      }).toString(),
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_client');
  });
});

const now = () => Math.floor(Date.now() / 1000);

/** The assertion with its header's `typ` taken out (signature left as it was: the typ check comes first). */
function untyped(assertion: string): string {
  const [header = '', ...rest] = assertion.split('.');
  const { typ: _typ, ...plain } = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  return [Buffer.from(JSON.stringify(plain)).toString('base64url'), ...rest].join('.');
}

describe('machine clients in sign-in mode', () => {
  // docs/sign-in.md, "Machine clients": the library (1.2.3) has no client-credentials grant; when
  // it gains one this fails, and sign-in can issue machines their tokens.
  it('answers the client-credentials grant with unsupported_grant_type, and does not advertise it', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      string[]
    >;
    expect(metadata.grant_types_supported).not.toContain('client_credentials');
    const refused = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource }).toString(),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('unsupported_grant_type');
  });
});
