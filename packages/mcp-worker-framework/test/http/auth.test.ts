/**
 * Authorization as an OAuth resource server (spec 2026-07-28 basic/authorization), principal-
 * scoped caching, CORS, rate limits and trace context, against the auth fixture in workerd.
 * Tokens are real ES256 JWTs signed here; the issuer's JWKS is served on loopback.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { signToken } from '../support/issuer';
import { meta, replyOf, requestsTo } from '../support/mcp';

const url = inject('authUrl');
const signer = inject('authSigner');
const { post, rpc } = requestsTo(url);
const RESOURCE = 'https://mcp.example.com/mcp';
let subjects = 0;

/** A token for a fresh subject (so rate-limit counters never collide) with `mcp:read`; `claims` add to or override these. */
const token = (claims: Record<string, unknown> = {}, by = signer) =>
  signToken(by, { sub: `user-${++subjects}-${Date.now()}`, scope: 'mcp:read', ...claims });

const call = async (method: string, bearer: string | undefined, params: Record<string, unknown> = {}) => {
  const response = await post(method, { params, headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
  return {
    status: response.status,
    headers: response.headers,
    body: response.status === 202 ? undefined : await replyOf(response),
  };
};

describe('OAuth resource server (AUTH_MODE = jwt)', () => {
  it('serves the protected resource metadata (RFC 9728) with HTTP caching', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(new URL(path, url));
      expect(response.status).toBe(200);
      expect(response.headers.get('Cache-Control')).toMatch(/public, max-age=\d+/);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [signer.issuer],
        scopes_supported: ['mcp:read', 'mcp:admin'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('lets a valid token in and hands its subject to the handler', async () => {
    const { status, body } = await call('tools/call', await token({ sub: 'alice', scope: 'mcp:read mcp:admin' }), {
      name: 'admin_only',
      arguments: {},
    });
    expect(status).toBe(200);
    expect(body?.result?.content[0].text).toBe('hello alice with mcp:read mcp:admin');
  });

  it("hands the handler the caller: subject, scopes with the ones they imply, and the verified token's claims", async () => {
    const bearer = await token({
      sub: 'carol',
      scope: 'mcp:admin',
      email: 'carol@example.com',
      groups: ['eng', 'ops'],
    });
    const { status, body } = await call('tools/call', bearer, { name: 'admin_only', arguments: {} });
    expect(status).toBe(200);
    const { caller } = body?.result?.structuredContent;
    expect(Object.keys(caller).sort()).toEqual(['claims', 'expiresAt', 'issuer', 'kind', 'scopes', 'subject']); // no props outside sign-in mode
    expect(caller.expiresAt).toBe(caller.claims.exp * 1000);
    expect(caller.subject).toBe('carol');
    expect(caller.kind).toBe('person');
    expect(caller.issuer).toBe(signer.issuer);
    expect(caller.scopes).toEqual(['mcp:admin', 'mcp:read']);
    expect(caller.claims).toMatchObject({
      sub: 'carol',
      iss: signer.issuer,
      aud: RESOURCE,
      scope: 'mcp:admin',
      email: 'carol@example.com',
      groups: ['eng', 'ops'],
    });
  });

  it('keeps only the scope tokens RFC 6749 3.3 allows: a scope with a tab in it is not kept whole', async () => {
    const { status, body } = await call(
      'tools/call',
      await token({ sub: 'dora', scope: 'mcp:admin\tmcp:read mcp:admin mcp:read' }),
      { name: 'admin_only', arguments: {} },
    );
    expect(status).toBe(200);
    expect(body?.result?.content[0].text).toBe('hello dora with mcp:admin mcp:read');
  });

  it('answers a request without a token with 401, where to find the metadata and the scopes to ask for', async () => {
    const { status, headers, body } = await call('tools/list', undefined);
    expect(status).toBe(401);
    // spec 2026-07-28 basic/authorization, Scope Selection Strategy: the 401 SHOULD carry `scope`.
    expect(headers.get('WWW-Authenticate')).toMatch(
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource", scope="mcp:read mcp:admin"$/,
    );
    expect(body?.error?.message).toMatch(/token is required/);
  });

  it('names the scopes to ask for in the 401 of an invalid token too', async () => {
    const { status, headers } = await call('tools/list', 'not-a-jwt');
    expect(status).toBe(401);
    expect(headers.get('WWW-Authenticate')).toMatch(/, scope="mcp:read mcp:admin", error="invalid_token"$/);
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])('reads the scheme %s case-insensitively (RFC 9110 11.1)', async (scheme) => {
    const response = await post('tools/list', { headers: { Authorization: `${scheme} ${await token()}` } });
    expect(response.status).toBe(200);
  });

  it('compares the audience with the scheme and host case-insensitively, the path exactly', async () => {
    expect((await call('tools/list', await token({ aud: 'HTTPS://MCP.Example.COM/mcp' }))).status).toBe(200);
    expect(
      (await call('tools/list', await token({ aud: ['https://elsewhere.example/mcp', 'https://MCP.example.com/mcp'] })))
        .status,
    ).toBe(200);
    for (const aud of [
      'https://mcp.example.com/MCP',
      'https://mcp.example.com/mcp/',
      'https://mcp.example.com.evil/mcp',
    ]) {
      const { status, headers } = await call('tools/list', await token({ aud }));
      expect(status).toBe(401);
      expect(headers.get('WWW-Authenticate')).toMatch(/error="invalid_token"/);
    }
  });

  it.each([
    ['expired', () => token({ exp: Math.floor(Date.now() / 1000) - 3600 })],
    ['not yet valid', () => token({ nbf: Math.floor(Date.now() / 1000) + 3600 })],
    // RFC 9068 2.2: exp is required; without it the token would never expire.
    ['without exp', () => token({ exp: undefined })],
    ['issued in the future, beyond the clock skew', () => token({ iat: Math.floor(Date.now() / 1000) + 100_000 })],
    ['whose iat is no number', () => token({ iat: 'yesterday' })],
    ['for another audience', () => token({ aud: 'https://other.example.com/mcp' })],
    ['from another issuer', () => token({ iss: 'https://evil.example.com' })],
    ['with a bad signature', async () => `${(await token()).slice(0, -6)}AAAAAA`],
    [
      'signed by an unknown key',
      async () => {
        const { privateKey } = await generateKeyPair('ES256', { extractable: true });
        return token({}, { ...signer, privateKey: await exportJWK(privateKey) });
      },
    ],
    ['not a JWT at all', async () => 'not-a-jwt'],
  ])('refuses a token %s with 401 invalid_token', async (_, make) => {
    const { status, headers } = await call('tools/list', await make());
    expect(status).toBe(401);
    expect(headers.get('WWW-Authenticate')).toMatch(/error="invalid_token"/);
  });

  it('refuses a tool whose scope the token lacks with 403 insufficient_scope naming the scope', async () => {
    const { status, headers, body } = await call('tools/call', await token({ scope: 'mcp:read' }), {
      name: 'admin_only',
      arguments: {},
    });
    expect(status).toBe(403);
    expect(headers.get('WWW-Authenticate')).toMatch(/error="insufficient_scope", scope="mcp:admin"/);
    expect(body?.error?.message).toMatch(/mcp:admin/);
  });

  it("accounts for scope hierarchies: a broader scope grants the narrower ones it implies (the fixture's scopeHierarchy)", async () => {
    // The fixture: mcp:owner implies mcp:admin, which implies mcp:read; `audit` needs mcp:read and mcp:admin.
    expect(
      (await call('tools/call', await token({ scope: 'mcp:admin' }), { name: 'audit', arguments: {} })).status,
    ).toBe(200);
    const owner = await call('tools/call', await token({ sub: 'olivia', scope: 'mcp:owner' }), {
      name: 'admin_only',
      arguments: {},
    });
    expect(owner.status).toBe(200);
    expect(owner.body?.result?.content[0].text).toBe('hello olivia with mcp:owner mcp:admin mcp:read');
    const reader = await call('tools/call', await token({ scope: 'mcp:read' }), { name: 'admin_only', arguments: {} });
    expect(reader.status).toBe(403);
  });

  it('challenges for the broadest missing scope once, not for the narrower ones it implies', async () => {
    const { status, headers } = await call('tools/call', await token({ scope: '' }), { name: 'audit', arguments: {} });
    expect(status).toBe(403);
    expect(headers.get('WWW-Authenticate')).toMatch(
      /^Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="/,
    );
  });

  it('makes results for an authenticated caller private, with Vary: Authorization', async () => {
    const bearer = await token();
    for (const method of ['server/discover', 'tools/list']) {
      const { headers, body } = await call(method, bearer);
      expect(body?.result?.cacheScope).toBe('private');
      expect(headers.get('Cache-Control')).toMatch(/^private/);
      expect(headers.get('Vary')).toContain('Authorization');
    }
  });

  it('keeps a result public under auth only when its definition says so explicitly', async () => {
    const bearer = await token();
    const explicit = await call('resources/read', bearer, { uri: 'test://public-doc' });
    expect(explicit.body?.result?.cacheScope).toBe('public');
    expect(explicit.headers.get('Cache-Control')).toBe('public, max-age=60');
    const implicit = await call('resources/read', bearer, { uri: 'test://default-doc' });
    expect(implicit.body?.result?.cacheScope).toBe('private');
    expect(implicit.headers.get('Cache-Control')).toBe('private, max-age=60');
    expect(implicit.headers.get('Vary')).toContain('Authorization');
    const anonymous = await rpc('resources/read', { url: inject('fixtureUrl'), params: { uri: 'test://default-doc' } });
    expect(anonymous.headers.get('Cache-Control')).toBe('public, max-age=60');
  });

  it('rejects requestState from one user presented by another', async () => {
    const capabilities = meta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } })[
      'io.modelcontextprotocol/clientCapabilities'
    ];
    const withElicitation = { ...meta(), 'io.modelcontextprotocol/clientCapabilities': capabilities };
    const alice = await token({ sub: 'alice-state' });
    const first = await call('tools/call', alice, {
      name: 'wizard',
      arguments: { greeting: 'hi' },
      _meta: withElicitation,
    });
    const state = first.body?.result?.requestState;
    const retry = {
      name: 'wizard',
      arguments: { greeting: 'hi' },
      _meta: withElicitation,
      inputResponses: { name: { action: 'accept', content: { name: 'A' } } },
      requestState: state,
    };
    expect((await call('tools/call', alice, retry)).body?.result?.resultType).toBe('input_required');
    const mallory = await call('tools/call', await token({ sub: 'mallory' }), retry);
    expect(mallory.body?.error?.code).toBe(-32602);
  });

  it("carries the W3C trace context from the request into the tool's outbound fetch", async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const viaMeta = await call('tools/call', await token(), {
      name: 'traced',
      arguments: {},
      _meta: { ...meta(), traceparent },
    });
    expect(JSON.parse(viaMeta.body?.result?.content[0].text)).toEqual({ traceparent });
    const response = await post('tools/call', {
      params: { name: 'traced', arguments: {} },
      headers: { Authorization: `Bearer ${await token()}`, traceparent },
    });
    expect(JSON.parse((await replyOf(response)).result?.content[0].text)).toEqual({ traceparent });
  });
});

describe('rate limiting (Workers Rate Limiting binding, 8 a minute per principal in the fixture)', () => {
  it('answers 429 with Retry-After and a JSON-RPC error past the limit, per principal', async () => {
    // The local limiter counts in fixed one-minute windows: a window may end mid-test, so look
    // for the first refusal within 20 calls and require at least 8 answers before it.
    const bearer = await token();
    let over: Awaited<ReturnType<typeof call>> | undefined;
    let answered = 0;
    for (let i = 0; i < 20 && !over; i++) {
      const reply = await call('tools/list', bearer);
      if (reply.status === 429) over = reply;
      else {
        expect(reply.status).toBe(200);
        answered++;
      }
    }
    expect(over?.status).toBe(429);
    expect(answered).toBeGreaterThanOrEqual(8);
    expect(Number(over?.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(over?.body?.error?.code).toBe(-32600);
    expect((await call('tools/list', await token())).status).toBe(200); // another principal is not affected
  });

  it('limits discover with its own, looser limiter', async () => {
    const bearer = await token();
    for (let i = 0; i < 12; i++) expect((await call('server/discover', bearer)).status).toBe(200);
  });
});

describe('CORS with auth on', () => {
  it('lets an allowed origin preflight Authorization, and refuses others with 403', async () => {
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, mcp-method',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toBe('authorization, mcp-method');
    expect(preflight.headers.get('Access-Control-Max-Age')).toBe('86400');
    const evil = await rpc('server/discover', { headers: { Origin: 'https://evil.example.com' } });
    expect(evil.status).toBe(403);
  });
});
