/**
 * Enterprise sign-in's own parts (src/signin/enterprise.ts), where the library leaves a gap: an
 * identity provider it would silently never trust is refused at load, naming it; the subject is
 * namespaced by issuer and never holds the library's ':' separator; the outages the library
 * answers `invalid_grant` become a 503 with Retry-After, and nothing else does; a deployment
 * without the single-use store is refused, naming its binding. The whole grant runs in workerd in
 * test/signin/enterprise.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { WorkerEnv } from '../../../src/env';
import { SettingError } from '../../../src/http/settings/settingsTable';
import {
  checkEnterprise,
  enterpriseError,
  enterpriseExtension,
  enterpriseUserId,
} from '../../../src/signin/enterprise';
import { grantCaller } from '../../../src/signin/grantCaller';
import { singleUseProblem } from '../../../src/signin/singleUse';
import type { SignInAuthSettings } from '../../../src/signin/signInSettings';

const GOOD = { issuer: 'https://acme.okta.example', jwksUrl: 'https://acme.okta.example/oauth2/v1/keys' };

describe('the identity providers of signIn({ enterprise })', () => {
  it.each([
    ['an http issuer', { ...GOOD, issuer: 'http://acme.okta.example' }, /issuer must be an https URL/],
    ['an http JWKS URL', { ...GOOD, jwksUrl: 'http://acme.okta.example/keys' }, /jwksUrl must be an https URL/],
    ['a JWKS URL that is no URL', { ...GOOD, jwksUrl: 'keys.json' }, /jwksUrl must be an https URL/],
    ['an algorithm the library cannot verify', { ...GOOD, algorithms: ['HS256'] }, /RS256, ES256 or both/],
    ['no algorithm at all', { ...GOOD, algorithms: [] }, /RS256, ES256 or both/],
  ])('stops the Worker at load for %s, naming the provider', (_, provider, why) => {
    const options = { identityProviders: [provider as never] };
    expect(() => checkEnterprise(options)).toThrow(why);
    expect(() => checkEnterprise(options)).toThrow(JSON.stringify(provider.issuer));
  });

  it('stops the Worker at load for an empty list, and takes a good list or a resolver', () => {
    expect(() => checkEnterprise({ identityProviders: [] })).toThrow(/at least one identity provider/);
    expect(() =>
      checkEnterprise({ identityProviders: [GOOD, { ...GOOD, algorithms: ['ES256', 'RS256'] }] }),
    ).not.toThrow();
    expect(() => checkEnterprise({ identityProviders: () => undefined })).not.toThrow();
  });

  it('names the extension it adds to discover, and refuses a deployment without the single-use store, naming its binding', () => {
    expect(enterpriseExtension.id).toBe('io.modelcontextprotocol/enterprise-managed-authorization');
    const refused = singleUseProblem({} as WorkerEnv);
    expect(refused).toBeInstanceOf(SettingError);
    expect(refused?.setting).toBe('MCP_ASSERTIONS');
    expect(singleUseProblem({ MCP_ASSERTIONS: {} } as WorkerEnv)).toBeUndefined();
  });
});

describe('the subject of an enterprise person', () => {
  it('is enterprise-<32 hex of the issuer>-<sub, URL-encoded>, different for each issuer, with no ":"', async () => {
    const a = await enterpriseUserId('https://acme.okta.example', 'user:42@acme');
    const b = await enterpriseUserId('https://globex.okta.example', 'user:42@acme');
    expect(a).toMatch(/^enterprise-[0-9a-f]{32}-user%3A42%40acme$/);
    expect(b).not.toBe(a);
    expect(b.endsWith('-user%3A42%40acme')).toBe(true);
  });

  it('is the SHA-256 of a sub that has no URL encoding (a lone surrogate), never an error', async () => {
    expect(await enterpriseUserId('https://acme.okta.example', 'user\uD800')).toMatch(
      /^enterprise-[0-9a-f]{32}-sha256-[0-9a-f]{64}$/,
    );
  });

  it("is the SHA-256 of a sub too long to encode within a userId, and still the issuer's", async () => {
    const long = await enterpriseUserId('https://acme.okta.example', 'é'.repeat(200));
    expect(long).toMatch(/^enterprise-[0-9a-f]{32}-sha256-[0-9a-f]{64}$/);
    expect(long.length).toBeLessThanOrEqual(256);
  });

  it('is a caller of kind enterprise, its issuer the identity provider; an upstream sign-in is a person', () => {
    const auth = { login: { provider: 'github', githubUrl: 'https://github.com' } } as SignInAuthSettings;
    const token = { audience: '', expiresAt: 0, clientId: 'c', scope: ['mcp:read'] };
    const enterprise = grantCaller(
      {
        ...token,
        userId: 'enterprise-x-y',
        props: { provider: 'enterprise', issuer: GOOD.issuer, claims: { sub: 'y' } },
      },
      auth,
    );
    expect(enterprise).toMatchObject({ subject: 'enterprise-x-y', kind: 'enterprise', issuer: GOOD.issuer });
    const github = grantCaller(
      { ...token, userId: 'github-1', props: { provider: 'github', accessToken: 't', claims: { login: 'octocat' } } },
      auth,
    );
    expect(github).toMatchObject({ kind: 'person', issuer: 'https://github.com' });
  });
});

describe("the token endpoint's answer to the library's enterprise errors", () => {
  const category = 'enterprise-managed-authorization';

  it.each(['jwks_fetch_failed', 'mapper_threw'])(
    'makes %s a 503 temporarily_unavailable with Retry-After',
    async (reason) => {
      const response = enterpriseError({ category, reason })!;
      expect(response.status).toBe(503);
      expect(response.headers.get('Retry-After')).toBe('5');
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      expect(((await response.json()) as { error: string }).error).toBe('temporarily_unavailable');
    },
  );

  it.each([
    [category, 'signature_failed'],
    [category, 'replayed'],
    [category, 'issuer_not_trusted'],
    [category, 'mapper_denied'],
    ['client-authentication', 'client_not_found'],
    ['client-id-metadata-document', 'jwks_fetch_failed'],
  ])('leaves %s %s to the library', (cat, reason) => {
    expect(enterpriseError({ category: cat, reason })).toBeUndefined();
  });
});
