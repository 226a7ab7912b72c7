/**
 * The issuer's keys and the resource identifier (spec 2026-07-28 basic/authorization): an
 * identity provider that is down is not the client's fault (503 with Retry-After, never
 * invalid_token), keys already fetched keep verifying while it is down, one fetch serves every
 * concurrent cold request, a rotated key verifies on first sight, a flood of unknown key ids does
 * not become a flood of fetches, and the audience never comes from the request's Host. Each case
 * runs the auth fixture in workerd against a tenant of its own of a loopback issuer.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWKS_REFETCH_INTERVAL_MS } from '../../src/auth/jwks';
import { ErrorCode } from '../../src/mcp/errors';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { AUDIENCE, startIssuer, type Behaviour, type Issuer, type Tenant } from '../support/issuer';
import { mcpHeaders, meta, requestsTo, type Reply } from '../support/mcp';

/** The fixture's AUTH_JWKS_TIMEOUT_MS: how long a hanging issuer is waited for. */
const TIMEOUT_MS = 500;
let issuer: Issuer;
const workers: WorkerInWorkerd[] = [];

beforeAll(async () => {
  issuer = await startIssuer();
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.dispose()));
  await issuer?.close();
});

/** The auth fixture in workerd, trusting `tenant` alone. */
async function serve(tenant: Tenant, vars: Record<string, string> = {}): Promise<WorkerInWorkerd> {
  const worker = await startInWorkerd({
    config: 'test/fixtures/auth.wrangler.toml',
    vars: {
      AUTH_MODE: 'jwt',
      AUTH_ISSUER: tenant.issuer,
      AUTH_RESOURCE: AUDIENCE,
      AUTH_JWKS_TIMEOUT_MS: String(TIMEOUT_MS),
      ...vars,
    },
  });
  workers.push(worker);
  return worker;
}

const call = (worker: WorkerInWorkerd, token: string) =>
  requestsTo(`${worker.url}/mcp`).rpc('tools/list', { headers: { Authorization: `Bearer ${token}` } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (at most `ms`, generous: only a failing test waits it out) until `check` holds; returns whether it did. */
async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(25);
  return check();
}

/** The Worker's log lines that name the JWKS. */
const jwksLines = (worker: WorkerInWorkerd) => worker.logs().filter((line) => line.includes('JWKS'));

describe('the identity provider is down: 503, never invalid_token', () => {
  it.each<[string, Behaviour | 'refuse', RegExp]>([
    ['answers 500', 'status-500', /HTTP 500/],
    ['answers 503', 'status-503', /HTTP 503/],
    ['answers a body that is not JSON', 'not-json', /not JSON/],
    ['answers JSON that is not a JWKS', 'not-a-jwks', /not a JSON Web Key Set/],
    ['redirects', 'redirect', /redirect/],
    ['refuses connections', 'refuse', /could not connect/],
    ['hangs', 'hang', new RegExp(`no answer within ${TIMEOUT_MS} ms`)],
  ])(
    'when the JWKS endpoint %s, answers 503 with Retry-After and the unreachable error, and logs the cause',
    async (_, behaviour, cause) => {
      const tenant = await issuer.tenant(`down-${behaviour}`);
      await tenant.addKey('k1');
      if (behaviour !== 'refuse') tenant.behaviour = behaviour;
      const worker = await serve(tenant, behaviour === 'refuse' ? { AUTH_JWKS_URL: issuer.refusingUrl } : {});
      const token = await tenant.token('k1');

      const started = Date.now();
      const { status, headers, body } = await call(worker, token);
      expect(status).toBe(503);
      // Answered once the issuer's timeout ran out, not never: the bound is generous, the timeout is what it tells apart from a hang.
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 10_000);
      expect(Number(headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
      expect(Number(headers.get('Retry-After'))).toBeLessThanOrEqual(Math.ceil(JWKS_REFETCH_INTERVAL_MS / 1000));
      expect(headers.get('WWW-Authenticate')).toBeNull();
      expect(body.error?.code).toBe(ErrorCode.AuthorizationServerUnreachable);
      expect(body.error?.message).toMatch(/authorization server is unreachable/i);
      expect(await eventually(() => jwksLines(worker).some((line) => cause.test(line)))).toBe(true);
      for (const line of jwksLines(worker)) expect(line.length).toBeLessThan(600);

      // Asked again at once: the same answer, and the issuer is not asked again (at most once per interval).
      const fetches = tenant.fetches;
      expect((await call(worker, token)).status).toBe(503);
      expect(tenant.fetches).toBe(fetches);
    },
  );

  it('keeps verifying with the keys it has when a refresh fails, without waiting for it, and logs that it serves stale keys', async () => {
    // The refresh is given a long timeout, so an answer that waited for it is told apart from one
    // that did not by seconds, not by the milliseconds of a loaded machine.
    const REFRESH_TIMEOUT_MS = 8_000;
    const tenant = await issuer.tenant('stale');
    await tenant.addKey('k1');
    tenant.maxAge = 1; // the keys go stale after a second
    const worker = await serve(tenant, { AUTH_JWKS_TIMEOUT_MS: String(REFRESH_TIMEOUT_MS) });
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200);
    expect(tenant.fetches).toBe(1);

    tenant.behaviour = 'hang';
    await sleep(Math.max(1_000, JWKS_REFETCH_INTERVAL_MS) + 200);
    const gaveUp = () =>
      jwksLines(worker).some(
        (line) => new RegExp(`no answer within ${REFRESH_TIMEOUT_MS} ms`).test(line) && /stale/.test(line),
      );
    const started = Date.now();
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200);
    // Answered while the refresh still hangs: before it gave up, well within its timeout.
    expect(gaveUp()).toBe(false);
    expect(Date.now() - started).toBeLessThan(REFRESH_TIMEOUT_MS / 2);
    expect(await eventually(() => tenant.fetches === 2)).toBe(true);
    // Asked again while the refresh hangs: the stale keys again, and no second refresh.
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200);
    expect(tenant.fetches).toBe(2);
    // Once the refresh gave up, the keys it had still verify.
    expect(await eventually(gaveUp, REFRESH_TIMEOUT_MS + 10_000)).toBe(true);
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200);
  }, 60_000);
});

describe('fetching the keys', () => {
  it('refuses a malformed, expired, foreign or misaddressed token with 401 without fetching any key', async () => {
    const tenant = await issuer.tenant('decode-first');
    await tenant.addKey('k1');
    const worker = await serve(tenant);
    const now = Math.floor(Date.now() / 1000);
    const tokens = [
      'not-a-jwt',
      'eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln',
      await tenant.token('k1', { exp: now - 3600 }),
      await tenant.token('k1', { nbf: now + 3600 }),
      await tenant.token('k1', { aud: 'https://other.example.com/mcp' }),
      await tenant.token('k1', { iss: 'https://elsewhere.example.com' }),
      await tenant.token('k1', { sub: 42 }),
    ];
    for (const token of tokens) {
      const { status, headers } = await call(worker, token);
      expect(status).toBe(401);
      expect(headers.get('WWW-Authenticate')).toMatch(/error="invalid_token"/);
    }
    expect(tenant.fetches).toBe(0);
  });

  it('makes one fetch for 20 concurrent requests of a cold isolate', async () => {
    const tenant = await issuer.tenant('single-flight');
    await tenant.addKey('k1');
    const worker = await serve(tenant);
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => tenant.token('k1', { sub: `user-${i}` })));
    const answers = await Promise.all(tokens.map((token) => call(worker, token)));
    expect(answers.map((answer) => answer.status)).toEqual(tokens.map(() => 200));
    expect(tenant.fetches).toBe(1);
  });

  it('verifies a token signed with a rotated-in key on first sight', async () => {
    const tenant = await issuer.tenant('rotation');
    await tenant.addKey('k1');
    const worker = await serve(tenant);
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200);
    await tenant.addKey('k2');
    const started = Date.now();
    expect((await call(worker, await tenant.token('k2'))).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(JWKS_REFETCH_INTERVAL_MS + 10_000);
    expect(tenant.fetches).toBe(2);
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200);
  });

  it('answers a flood of unknown key ids with 401 and one fetch, not one each', async () => {
    const tenant = await issuer.tenant('flood');
    await tenant.addKey('k1');
    const worker = await serve(tenant);
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200);
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => tenant.token(`forged-${i}`)));
    const answers = await Promise.all(tokens.map((token) => call(worker, token)));
    expect(answers.map((answer) => answer.status)).toEqual(tokens.map(() => 401));
    for (const { headers } of answers) expect(headers.get('WWW-Authenticate')).toMatch(/error="invalid_token"/);
    expect(tenant.fetches).toBe(2);
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200);
  });
});

/** POSTs tools/list with a Host of the caller's choosing (fetch cannot set Host). */
function postWithHost(url: string, host: string, token: string): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { ...mcpHeaders('tools/list'), Host: host, Authorization: `Bearer ${token}` } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('the resource identifier comes from configuration, never from the request', () => {
  it('refuses a token for another host sent with that Host header', async () => {
    const tenant = await issuer.tenant('host');
    await tenant.addKey('k1');
    const worker = await serve(tenant);
    const token = await tenant.token('k1', { aud: 'http://other-mcp.example/mcp' });
    const { status, body } = await postWithHost(`${worker.url}/mcp`, 'other-mcp.example', token);
    expect(status).toBe(401);
    expect((JSON.parse(body) as Reply).result).toBeUndefined();
    expect((await call(worker, await tenant.token('k1'))).status).toBe(200); // aud = AUTH_RESOURCE passes
  });

  it('serves nothing in jwt mode without AUTH_RESOURCE, whatever the Host says', async () => {
    const tenant = await issuer.tenant('no-resource');
    await tenant.addKey('k1');
    const worker = await serve(tenant, { AUTH_RESOURCE: '' });
    const token = await tenant.token('k1', { aud: 'http://other-mcp.example/mcp' });
    const { status, body } = await postWithHost(`${worker.url}/mcp`, 'other-mcp.example', token);
    expect(status).toBe(500);
    expect(body).not.toContain('"result"');
    expect(tenant.fetches).toBe(0);
  });

  it('advertises the configured resource in the metadata whatever the Host says', async () => {
    const tenant = await issuer.tenant('metadata');
    const worker = await serve(tenant);
    const document = await new Promise<string>((resolve, reject) => {
      httpRequest(
        `${worker.url}/.well-known/oauth-protected-resource`,
        { headers: { Host: 'other-mcp.example' } },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve(text));
        },
      )
        .on('error', reject)
        .end();
    });
    expect(JSON.parse(document).resource).toBe(AUDIENCE);
  });
});
