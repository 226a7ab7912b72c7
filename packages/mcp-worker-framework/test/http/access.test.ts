/**
 * AUTH_MODE = "access" (issue 22): Cloudflare Access in front, its token in
 * `Cf-Access-Jwt-Assertion` checked against the team's certs, served on loopback by a tenant of
 * the tests' issuer (`/<team>/cdn-cgi/access/certs`), which a test can break.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { signToken, startIssuer, type Issuer, type Signer, type Tenant } from '../support/issuer';
import { expectListenEndsAtExpiry, requestsTo } from '../support/mcp';

/** The application's AUD tag, as the Zero Trust dashboard shows one. */
const AUD = 'f3a1c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';
/** A second application in front of the same Worker (its workers.dev hostname, say). */
const OTHER_AUD = '0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9';
let issuer: Issuer;
let team: Tenant;
let signer: Signer;
const workers: WorkerInWorkerd[] = [];

/** The callers fixture behind "Access" for `teamDomain`. */
async function serve(teamDomain: string): Promise<WorkerInWorkerd> {
  const worker = await startInWorkerd({
    config: 'test/fixtures/callers/wrangler.toml',
    vars: {
      AUTH_MODE: 'access',
      ACCESS_TEAM_DOMAIN: teamDomain,
      ACCESS_AUD: `${AUD}, ${OTHER_AUD}`,
      ACCESS_SCOPES_CLAIM: 'groups',
      AUTH_JWKS_TIMEOUT_MS: '500',
    },
  });
  workers.push(worker);
  return worker;
}

let worker: WorkerInWorkerd;
beforeAll(async () => {
  issuer = await startIssuer();
  team = await issuer.tenant('acme');
  await team.addKey('access-key');
  signer = await team.signer('access-key', AUD);
  worker = await serve(team.issuer);
});
afterAll(async () => {
  await Promise.all(workers.map((one) => one.dispose()));
  await issuer?.close();
});

/** Access's token for a user: `aud` a list with the AUD tag, as Access sends it; `claims` override. */
const assertion = (claims: Record<string, unknown> = {}, by = signer) =>
  signToken(by, { aud: [AUD], sub: 'a1b2c3-user', email: 'ada@acme.example', type: 'app', ...claims });

async function call(
  method: string,
  headers: Record<string, string>,
  params: Record<string, unknown> = {},
  at = worker,
) {
  const response = await requestsTo(`${at.url}/mcp`).post(method, { headers, params });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { result?: any; error?: any },
  };
}

describe('Cloudflare Access (AUTH_MODE = access)', () => {
  it('lets a request Access signed in, and hands the handler the Access identity: sub, email, groups as scopes', async () => {
    const token = await assertion({ groups: ['admin', 'not a scope'] });
    const { status, body } = await call(
      'tools/call',
      { 'Cf-Access-Jwt-Assertion': token },
      { name: 'whoami', arguments: {} },
    );
    expect(status).toBe(200);
    const { caller } = body.result.structuredContent;
    expect(caller.subject).toBe('a1b2c3-user');
    expect(caller.scopes).toEqual(['admin', 'repo:read']); // groups, then what admin implies; "not a scope" is no scope token
    expect(caller.claims).toMatchObject({
      email: 'ada@acme.example',
      groups: ['admin', 'not a scope'],
      iss: team.issuer,
      aud: [AUD],
    });
    expect(caller).not.toHaveProperty('props');
  });

  it("gives the caller the Access token's exp as its expiry, and a listen stream ends there, long before its time limit", async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const headers = { 'Cf-Access-Jwt-Assertion': await assertion({ exp }) };
    const { body } = await call('tools/call', headers, { name: 'whoami', arguments: {} });
    expect(body.result.structuredContent.caller.expiresAt).toBe(exp * 1000);
    await expectListenEndsAtExpiry(`${worker.url}/mcp`, headers);
  });

  it('shows the caller the list its groups allow', async () => {
    const { body } = await call('resources/list', {
      'Cf-Access-Jwt-Assertion': await assertion({ groups: ['admin'] }),
    });
    expect(body.result.resources.map((r: { name: string }) => r.name)).toEqual(['public', 'admin']);
    const plain = await call('resources/list', { 'Cf-Access-Jwt-Assertion': await assertion() });
    expect(plain.body.result.resources.map((r: { name: string }) => r.name)).toEqual(['public']);
  });

  /** The subject the Worker makes of an assertion, as `whoami` answers it; or the refusal's status. */
  const subjectOf = async (token: string) => {
    const { status, body } = await call(
      'tools/call',
      { 'Cf-Access-Jwt-Assertion': token },
      { name: 'whoami', arguments: {} },
    );
    return status === 200 ? body.result.structuredContent.caller.subject : status;
  };

  it("takes a service token's common_name as the subject, in a namespace of its own, its sub being empty", async () => {
    const token = await assertion({ sub: '', common_name: 'ci-bot.access', email: undefined });
    expect(await subjectOf(token)).toBe('common_name:ci-bot.access');
  });

  it('says a user is a person and a service token a machine, each vouched for by the team', async () => {
    const kindOf = async (token: string) =>
      (await call('tools/call', { 'Cf-Access-Jwt-Assertion': token }, { name: 'whoami', arguments: {} })).body.result
        .structuredContent.caller;
    expect(await kindOf(await assertion())).toMatchObject({ kind: 'person', issuer: team.issuer });
    expect(await kindOf(await assertion({ sub: '', common_name: 'ci-bot.access', email: undefined }))).toMatchObject({
      kind: 'machine',
      issuer: team.issuer,
    });
  });

  it("never makes a service token a user: a common_name equal to a user's sub is another subject", async () => {
    const user = await subjectOf(await assertion());
    expect(user).toBe('a1b2c3-user');
    const service = await subjectOf(await assertion({ sub: '', common_name: user, email: undefined }));
    expect(service).toBe(`common_name:${user}`);
    // A user's sub that spells a service token's subject names nobody (401), so the two never meet.
    expect(await subjectOf(await assertion({ sub: `common_name:${user}` }))).toBe(401);
  });

  it('says which header its private answers vary on: Cf-Access-Jwt-Assertion, where the credential is', async () => {
    const headers = { 'Cf-Access-Jwt-Assertion': await assertion({ groups: ['admin'] }) };
    for (const [method, params] of [
      ['resources/list', {}], // a list that depends on the caller
      ['resources/read', { uri: 'doc://admin' }], // a read only some callers may make
    ] as const) {
      const answer = await call(method, headers, params);
      expect(answer.status, method).toBe(200);
      expect(answer.headers.get('Cache-Control'), method).toMatch(/^private, /);
      expect(answer.headers.get('Vary'), method).toBe('Cf-Access-Jwt-Assertion');
    }
  });

  it('lets in a token of any application ACCESS_AUD lists', async () => {
    expect(
      (await call('tools/list', { 'Cf-Access-Jwt-Assertion': await assertion({ aud: [OTHER_AUD] }) })).status,
    ).toBe(200);
  });

  it('refuses a request that did not come through Access with 401, a bearer token being no substitute', async () => {
    for (const headers of [{}, { Authorization: `Bearer ${await assertion()}` }] as Record<string, string>[]) {
      const { status, body } = await call('tools/list', headers);
      expect(status).toBe(401);
      expect(body.error.message).toMatch(/Cf-Access-Jwt-Assertion/);
    }
  });

  it.each([
    ['for another application', () => assertion({ aud: ['0'.repeat(64)] })],
    ['from another team', () => assertion({ iss: 'https://other.cloudflareaccess.com' })],
    ['expired', () => assertion({ exp: Math.floor(Date.now() / 1000) - 3600 })],
    ['without exp', () => assertion({ exp: undefined })],
    ['issued in the future, beyond the clock skew', () => assertion({ iat: Math.floor(Date.now() / 1000) + 100_000 })],
    ['naming nobody', () => assertion({ sub: '' })],
    ['naming a subject longer than 512 characters', () => assertion({ sub: 'x'.repeat(513) })],
    [
      'signed by a key the team never published',
      async () => {
        const { privateKey } = await generateKeyPair('ES256', { extractable: true });
        return assertion({}, { ...signer, privateKey: await exportJWK(privateKey) });
      },
    ],
    ['that is no JWT', async () => 'not-a-jwt'],
  ])('refuses an Access token %s with 401 invalid_token', async (_, make) => {
    const { status, headers } = await call('tools/list', { 'Cf-Access-Jwt-Assertion': await make() });
    expect(status).toBe(401);
    expect(headers.get('WWW-Authenticate')).toMatch(/error="invalid_token"/);
  });

  it('serves no OAuth metadata: clients sign in at Access', async () => {
    expect((await fetch(`${worker.url}/.well-known/oauth-protected-resource`)).status).toBe(404);
  });

  it.each<[string, (tenant: Tenant) => void]>([
    ['answer 503', (tenant) => (tenant.behaviour = 'status-503')],
    ['hang past AUTH_JWKS_TIMEOUT_MS', (tenant) => (tenant.behaviour = 'hang')],
  ])("answers 503 with Retry-After (-31503), never 401, while the team's certs %s", async (name, breakIt) => {
    const down = await issuer.tenant(`down-${name.split(' ')[0]}`);
    await down.addKey('access-key');
    breakIt(down);
    const at = await serve(down.issuer);
    const token = await signToken(await down.signer('access-key', AUD), { aud: [AUD], sub: 'someone' });
    const { status, headers, body } = await call('tools/list', { 'Cf-Access-Jwt-Assertion': token }, {}, at);
    expect(status).toBe(503);
    expect(Number(headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(body.error.code).toBe(-31503);
    expect(down.fetches).toBe(1);
  });

  it('answers 503 when nothing listens at the team domain', async () => {
    const at = await serve(new URL(issuer.refusingUrl).origin);
    const token = await signToken(
      { ...signer, issuer: new URL(issuer.refusingUrl).origin },
      { aud: [AUD], sub: 'someone' },
    );
    expect((await call('tools/list', { 'Cf-Access-Jwt-Assertion': token }, {}, at)).status).toBe(503);
  });

  it('serves nothing without ACCESS_AUD: every request is 500 naming the setting', async () => {
    const at = await startInWorkerd({
      config: 'test/fixtures/callers/wrangler.toml',
      vars: { AUTH_MODE: 'access', ACCESS_TEAM_DOMAIN: team.issuer },
    });
    workers.push(at);
    const { status, body } = await call(
      'tools/call',
      { 'Cf-Access-Jwt-Assertion': await assertion() },
      { name: 'whoami', arguments: {} },
      at,
    );
    expect(status).toBe(500);
    expect(body.error).toMatchObject({ code: -32603, data: { setting: 'ACCESS_AUD' } });
  });
});
