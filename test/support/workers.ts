/**
 * Global setup: a loopback stand-in for an upstream API, then the fixture Workers (test/fixtures/),
 * each built by wrangler and run in workerd (wrangler's test harness over Miniflare).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { exportJWK, generateKeyPair } from 'jose';
import { createTestHarness } from 'wrangler';
import { serveWithWorkerd } from '../../scripts/workerd.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The fixture with every setting at its default (test/fixtures/defaults.ts). */
    defaultsUrl: string;
    fixtureUrl: string;
    upstreamUrl: string;
    /** The fixture with AUTH_MODE = jwt, rate limits and request logs. */
    authUrl: string;
    /** The issuer whose keys the auth fixture trusts, and the private key (JWK) tests sign with. */
    issuer: string;
    signingKey: Record<string, unknown>;
    /** The fixture served by the workerd binary alone (disconnects reach the Worker as in production), modern-only. */
    directFixtureUrl: string;
  }
}

const root = new URL('../..', import.meta.url).pathname;

const slow = { started: 0, abandoned: 0 };
/** Public keys served as the issuer's JWKS (filled in by setup). */
const jwks: { keys: object[] } = { keys: [] };

/** The fixtures' upstream (UPSTREAM_URL): /slow and /stats for cancellation tests, /echo-headers, the issuer's JWKS. */
function fakeUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/slow') {
      // Never answers; records whether the caller gave up (its abort signal reached fetch).
      slow.started++;
      req.socket.on('close', () => slow.abandoned++);
    } else if (req.url === '/echo-headers') {
      const { traceparent = null, tracestate } = req.headers;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ traceparent, ...(tracestate !== undefined ? { tracestate } : {}) }));
    } else if (req.url === '/issuer/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
    } else if (req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(slow));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export default async function setup(project: TestProject) {
  const upstream = await fakeUpstream();
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const defaults = createTestHarness({ root, workers: [{ configPath: './test/fixtures/defaults.wrangler.toml', vars: { UPSTREAM_URL: upstreamUrl } }] });
  const fixture = createTestHarness({ root, workers: [{ configPath: './test/fixtures/wrangler.toml', vars: { UPSTREAM_URL: upstreamUrl } }] });
  // A real key pair: the issuer's public key is served as a JWKS on loopback, tests sign with the private one.
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  jwks.keys.push({ ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' });
  const issuer = `${upstreamUrl}/issuer`;
  const authed = createTestHarness({ root, workers: [{ configPath: './test/fixtures/auth.wrangler.toml', vars: { AUTH_ISSUER: issuer, UPSTREAM_URL: upstreamUrl } }] });
  const [d, f, a, direct] = await Promise.all([
    defaults.listen(),
    fixture.listen(),
    authed.listen(),
    serveWithWorkerd({ config: 'test/fixtures/wrangler.toml', vars: { UPSTREAM_URL: upstreamUrl, LEGACY_CLIENTS: 'off' } }),
  ]);
  project.provide('defaultsUrl', new URL('/mcp', d.url).href);
  project.provide('fixtureUrl', new URL('/mcp', f.url).href);
  project.provide('upstreamUrl', upstreamUrl);
  project.provide('authUrl', new URL('/mcp', a.url).href);
  project.provide('issuer', issuer);
  project.provide('signingKey', { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'ES256' });
  project.provide('directFixtureUrl', `${direct.url}/mcp`);
  return async () => {
    await Promise.all([defaults.close(), fixture.close(), authed.close(), direct.stop()]);
    upstream.closeAllConnections();
    upstream.close();
  };
}
