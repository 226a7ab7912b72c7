/**
 * AUTH_MODE = "introspect" (issue 22): opaque tokens checked at a loopback RFC 7662 endpoint
 * (test/support/introspection.ts), which counts the introspections it receives and can be broken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { startIntrospection, type IntrospectionEndpoint } from '../support/introspection';
import { expectListenEndsAtExpiry, requestsTo } from '../support/mcp';

const RESOURCE = 'https://mcp.example.com/mcp';
let endpoint: IntrospectionEndpoint;
const workers: WorkerInWorkerd[] = [];
let worker: WorkerInWorkerd;
let tokens = 0;

async function serve(vars: Record<string, string> = {}): Promise<WorkerInWorkerd> {
  const started = await startInWorkerd({
    config: 'test/fixtures/callers/wrangler.toml',
    vars: {
      AUTH_MODE: 'introspect',
      AUTH_INTROSPECTION_URL: endpoint.url,
      AUTH_INTROSPECTION_CLIENT_ID: endpoint.clientId,
      AUTH_RESOURCE: RESOURCE,
      AUTH_ISSUER: 'https://idp.example.com',
      AUTH_INTROSPECTION_TIMEOUT_MS: '300',
      ...vars,
    },
    secrets: { AUTH_INTROSPECTION_CLIENT_SECRET: endpoint.clientSecret },
  });
  workers.push(started);
  return started;
}

beforeAll(async () => {
  endpoint = await startIntrospection();
  worker = await serve();
});
afterAll(async () => {
  await Promise.all(workers.map((one) => one.dispose()));
  await endpoint?.close();
});

/** A fresh opaque token the endpoint answers `answer` for (active, for RESOURCE, valid 5 minutes, unless `answer` says otherwise). */
function token(answer: Record<string, unknown> = {}): string {
  const value = `opaque-${++tokens}-${Date.now()}`;
  endpoint.tokens.set(value, {
    active: true,
    sub: `user-${tokens}`,
    scope: 'repo:read',
    aud: RESOURCE,
    exp: Math.floor(Date.now() / 1000) + 300,
    ...answer,
  });
  return value;
}

async function call(
  bearer: string | undefined,
  method = 'tools/call',
  params: Record<string, unknown> = { name: 'whoami', arguments: {} },
  at = worker,
) {
  const response = await requestsTo(`${at.url}/mcp`).post(method, {
    headers: bearer === undefined ? {} : { Authorization: `Bearer ${bearer}` },
    params,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { result?: any; error?: any },
  };
}

describe('opaque tokens (AUTH_MODE = introspect)', () => {
  it('lets an active token in and hands the handler the answer as the caller', async () => {
    const bearer = token({ sub: 'ada', scope: 'admin', username: 'ada@example.com', client_id: 'claude' });
    const { status, body } = await call(bearer);
    expect(status).toBe(200);
    const { caller } = body.result.structuredContent;
    expect(caller.subject).toBe('ada');
    expect(caller.scopes).toEqual(['admin', 'repo:read']);
    expect(caller.claims).toMatchObject({
      active: true,
      username: 'ada@example.com',
      client_id: 'claude',
      aud: RESOURCE,
    });
  });

  it("gives the caller the answer's exp as its expiry, and a listen stream ends there, long before its time limit", async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const bearer = token({ exp });
    expect((await call(bearer)).body.result.structuredContent.caller.expiresAt).toBe(exp * 1000);
    await expectListenEndsAtExpiry(`${worker.url}/mcp`, { Authorization: `Bearer ${bearer}` });
    // An answer without exp says nothing of when the token ends: no expiry, the stream lives its time limit.
    const endless = token({ exp: undefined });
    expect((await call(endless)).body.result.structuredContent.caller).not.toHaveProperty('expiresAt');
  });

  it("asks with the form RFC 7662 describes and the server's client credentials in HTTP Basic, form-encoded first", async () => {
    const bearer = token();
    await call(bearer);
    expect(endpoint.last?.form).toEqual({ token: bearer, token_type_hint: 'access_token' });
    const [id, secret] = Buffer.from(endpoint.last!.authorization!.replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':');
    expect([decodeURIComponent(id!.replace(/\+/g, ' ')), decodeURIComponent(secret!.replace(/\+/g, ' '))]).toEqual([
      endpoint.clientId,
      endpoint.clientSecret,
    ]);
  });

  it.each([
    ['inactive', { active: false }],
    ['for another resource', { aud: ['https://other.example.com/mcp'] }],
    ['expired, though the endpoint calls it active', { exp: Math.floor(Date.now() / 1000) - 3600 }],
    ['naming nobody', { sub: undefined }],
    ['naming a subject longer than 512 characters', { sub: 'x'.repeat(513) }],
    // RFC 7662 2.2 token_type: a refresh token is no access token.
    ['a refresh token', { token_type: 'refresh_token' }],
    ['an ID token by its RFC 8693 type', { token_type: 'urn:ietf:params:oauth:token-type:id_token' }],
    ['for no audience (aud is required unless AUTH_INTROSPECTION_AUD = optional)', { aud: undefined }],
    ['with an empty sub, whatever its username', { sub: '', username: 'alice' }],
    ['with a sub that reads like a subject from another field', { sub: 'username:alice' }],
  ])('refuses a token that is %s with 401 invalid_token', async (_, answer) => {
    const { status, headers } = await call(token(answer));
    expect(status).toBe(401);
    expect(headers.get('WWW-Authenticate')).toMatch(/^Bearer resource_metadata="[^"]+", error="invalid_token"$/);
  });

  it.each(['Bearer', 'access_token', 'urn:ietf:params:oauth:token-type:access_token'])(
    'accepts an access token whose token_type is %s',
    async (tokenType) => {
      expect((await call(token({ token_type: tokenType }))).status).toBe(200);
    },
  );

  it('with AUTH_INTROSPECTION_AUD = optional, accepts an answer with no aud and says so in the log', async () => {
    const relaxed = await serve({ AUTH_INTROSPECTION_AUD: 'optional' });
    expect((await call(token({ aud: undefined }), undefined, undefined, relaxed)).status).toBe(200);
    expect(relaxed.logs().some((line) => line.includes('no aud') && line.includes('AUTH_INTROSPECTION_AUD'))).toBe(
      true,
    );
    expect((await call(token({ aud: 'https://other.example.com/mcp' }), undefined, undefined, relaxed)).status).toBe(
      401,
    );
  });

  it('never lets a subject from username or client_id equal one from sub: those carry a prefix', async () => {
    const subjectOf = async (answer: Record<string, unknown>) =>
      (await call(token(answer))).body.result?.structuredContent.caller.subject;
    expect(await subjectOf({ sub: 'alice' })).toBe('alice');
    expect(await subjectOf({ sub: undefined, username: 'alice' })).toBe('username:alice');
    expect(await subjectOf({ sub: undefined, client_id: 'alice' })).toBe('client_id:alice');
  });

  it('keeps only scope tokens (RFC 6749 3.3): a scope with a tab in it is not kept whole', async () => {
    const { body } = await call(token({ scope: 'admin\tread repo:read' }));
    expect(body.result.structuredContent.caller.scopes).toEqual(['repo:read']);
  });

  it('refuses a token with characters no bearer token has without asking the endpoint', async () => {
    const before = endpoint.calls;
    expect((await call('not a token, has spaces')).status).toBe(401);
    expect(endpoint.calls).toBe(before);
  });

  it('advertises the resource metadata with the configured authorization server', async () => {
    const response = await fetch(`${worker.url}/.well-known/oauth-protected-resource`);
    expect(await response.json()).toMatchObject({
      resource: RESOURCE,
      authorization_servers: ['https://idp.example.com'],
    });
  });

  it('keeps an answer per isolate: the same token is introspected once, another token again', async () => {
    const bearer = token();
    const before = endpoint.calls;
    await Promise.all([call(bearer), call(bearer)]);
    expect((await call(bearer)).status).toBe(200);
    expect(endpoint.calls - before).toBe(1);
    await call(token());
    expect(endpoint.calls - before).toBe(2);
  });

  it("never keeps an answer past the token's exp", async () => {
    const exp = Math.floor(Date.now() / 1000) + 1;
    const bearer = token({ exp });
    const before = endpoint.calls;
    expect((await call(bearer)).status).toBe(200);
    endpoint.tokens.set(bearer, { active: false }); // the authorization server forgets it once expired
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 100));
    expect((await call(bearer)).status).toBe(401);
    expect(endpoint.calls - before).toBe(2);
  });

  it('asks every time with AUTH_INTROSPECTION_CACHE_SECONDS = 0', async () => {
    const uncached = await serve({ AUTH_INTROSPECTION_CACHE_SECONDS: '0' });
    const bearer = token();
    const before = endpoint.calls;
    for (let i = 0; i < 3; i++) expect((await call(bearer, undefined, undefined, uncached)).status).toBe(200);
    expect(endpoint.calls - before).toBe(3);
  });

  it.each<[string, IntrospectionEndpoint['behaviour']]>([
    ['answers 500', 'status-500'],
    ['answers a body that is not JSON', 'not-json'],
    ['answers JSON that is no introspection answer', 'not-an-answer'],
    ['answers no sooner than AUTH_INTROSPECTION_TIMEOUT_MS', 'hang'],
  ])('answers 503 with Retry-After (-31503), never 401, while the endpoint %s', async (_, behaviour) => {
    const at = await serve();
    endpoint.behaviour = behaviour;
    try {
      const { status, headers, body } = await call(token(), undefined, undefined, at);
      expect(status).toBe(503);
      expect(headers.get('Retry-After')).toBe('5');
      expect(body.error.code).toBe(-31503);
    } finally {
      endpoint.behaviour = 'answers';
    }
    expect(at.logs().some((line) => line.includes('token introspection') && line.includes('failed'))).toBe(true);
  });

  it('does not hammer an endpoint that failed: new tokens get their 503 at once for the next 5 s, kept answers still work', async () => {
    const at = await serve();
    const known = token();
    expect((await call(known, undefined, undefined, at)).status).toBe(200);
    endpoint.behaviour = 'status-500';
    try {
      const before = endpoint.calls;
      expect((await call(token(), undefined, undefined, at)).status).toBe(503);
      for (let i = 0; i < 5; i++) {
        const { status, headers } = await call(token(), undefined, undefined, at);
        expect(status).toBe(503);
        expect(Number(headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
        expect(Number(headers.get('Retry-After'))).toBeLessThanOrEqual(5);
      }
      expect(endpoint.calls - before).toBe(1);
      expect((await call(known, undefined, undefined, at)).status).toBe(200);
    } finally {
      endpoint.behaviour = 'answers';
    }
  });

  it("answers 503 when the server's own client credentials are refused, and logs it as the misconfiguration it is", async () => {
    const wrong = await serve({ AUTH_INTROSPECTION_CLIENT_ID: 'someone else' });
    expect((await call(token(), undefined, undefined, wrong)).status).toBe(503);
    expect(wrong.logs().some((line) => line.includes('AUTH_INTROSPECTION_CLIENT_ID') && line.includes('401'))).toBe(
      true,
    );
  });

  it('refuses the one token an endpoint answers 400 for with 401, and keeps asking about the others', async () => {
    const at = await serve();
    endpoint.behaviour = 'status-400';
    try {
      const { status, headers } = await call(token(), undefined, undefined, at);
      expect(status).toBe(401);
      expect(headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    } finally {
      endpoint.behaviour = 'answers';
    }
    const before = endpoint.calls;
    expect((await call(token(), undefined, undefined, at)).status).toBe(200);
    expect(endpoint.calls - before).toBe(1);
  });

  it('keeps no token in what the Worker prints', async () => {
    const bearer = token({ active: false });
    await call(bearer);
    expect(worker.logs().join('\n')).not.toContain(bearer);
  });

  it('serves nothing without the client secret: every request is 500 naming the setting, never an open server', async () => {
    const at = await startInWorkerd({
      config: 'test/fixtures/callers/wrangler.toml',
      vars: {
        AUTH_MODE: 'introspect',
        AUTH_INTROSPECTION_URL: endpoint.url,
        AUTH_INTROSPECTION_CLIENT_ID: endpoint.clientId,
        AUTH_RESOURCE: RESOURCE,
      },
    });
    workers.push(at);
    const { status, body } = await call(token(), undefined, undefined, at);
    expect(status).toBe(500);
    expect(body.error).toMatchObject({ code: -32603, data: { setting: 'AUTH_INTROSPECTION_CLIENT_SECRET' } });
  });
});
