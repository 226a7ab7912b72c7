/**
 * Global setup: the fixture Workers that test files share, each started by the test kit
 * (`startInWorkerd`, as a fork tests its own) with the settings written here, and served on
 * loopback; a loopback stand-in for an upstream API; and the issuer whose keys the Workers with
 * AUTH_MODE = "jwt" trust (test/support/issuer.ts). A test file reaches them with `inject`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startInWorkerd, type WorkerdOptions } from '../../src/testing';
import { startIssuer, type Signer } from './issuer';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The fixture with every setting at its default (test/fixtures/defaults.ts). */
    defaultsUrl: string;
    /** The fixture with settings the defaults do not use: tiny pages and body limit, short streams (test/fixtures/worker.ts). */
    fixtureUrl: string;
    /** The stand-in upstream the fixtures' tools call (UPSTREAM_URL). */
    upstreamUrl: string;
    /** The fixture with AUTH_MODE = "jwt", rate limits and request logs. */
    authUrl: string;
    /** What signs tokens the auth fixture accepts (kid `test-key`, audience https://mcp.example.com/mcp). */
    authSigner: Signer;
    /** The spec fixture's MCP endpoint (test/spec/fixture). */
    specUrl: string;
    /** The same Worker with AUTH_MODE = "bearer" and the token `spec-bearer-token`. */
    specBearerUrl: string;
    /** The same Worker with AUTH_MODE = "jwt", resource `https://spec.example.com/mcp`. */
    specJwtUrl: string;
    /** What signs tokens the spec fixture accepts (kid `spec-key`). */
    specSigner: Signer;
    /** The same Worker with LEGACY_CLIENTS = "off": a modern-only server. */
    specModernOnlyUrl: string;
  }
}

const slow = { started: 0, abandoned: 0 };

/** The fixtures' upstream (UPSTREAM_URL): /slow and /stats for cancellation tests, /echo-headers for trace context. */
function startUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/slow') {
      // Never answers; records whether the caller gave up (its abort signal reached fetch).
      slow.started++;
      req.socket.on('close', () => slow.abandoned++);
    } else if (req.url === '/echo-headers') {
      const { traceparent = null, tracestate } = req.headers;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ traceparent, ...(tracestate !== undefined ? { tracestate } : {}) }));
    } else if (req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(slow));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export default async function setup(project: TestProject) {
  // The test-only CA of the loopback identity providers over TLS (test/fixtures/tls/README.md):
  // set before any test process starts, whose Miniflare reads it once and has workerd trust it.
  process.env.NODE_EXTRA_CA_CERTS = resolve('test/fixtures/tls/ca.pem');
  const [upstream, issuer] = await Promise.all([startUpstream(), startIssuer()]);
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const [authTenant, specTenant] = await Promise.all([issuer.tenant('auth'), issuer.tenant('spec')]);
  await Promise.all([authTenant.addKey('test-key'), specTenant.addKey('spec-key')]);

  const spec = { config: 'test/spec/fixture/wrangler.toml', secrets: { MCP_STATE_SECRET: 'spec fixture secret' } };
  const specSettings = { ALLOWED_ORIGINS: 'https://app.example.com', LISTEN_MAX_SECONDS: '1' };
  /** Each fixture Worker by the name its endpoint is provided under, with the settings it runs under. */
  const fixtures = {
    defaultsUrl: {
      config: 'test/fixtures/defaults.wrangler.toml',
      // The template's own wrangler.toml sets this one; every other setting is the code's default.
      vars: { ALLOWED_ORIGINS: 'http://localhost:*, http://127.0.0.1:*' },
      secrets: { MCP_STATE_SECRET: 'defaults fixture secret' },
    },
    fixtureUrl: {
      config: 'test/fixtures/wrangler.toml',
      vars: {
        ALLOWED_ORIGINS: 'https://app.example.com, https://*.example.org',
        MAX_BODY_BYTES: '1024',
        UPSTREAM_URL: upstreamUrl,
        LISTEN_MAX_SECONDS: '1',
        LISTEN_MAX_STREAMS: '2',
      },
      secrets: { MCP_STATE_SECRET: 'fixture secret' },
    },
    authUrl: {
      config: 'test/fixtures/auth.wrangler.toml',
      vars: {
        ALLOWED_ORIGINS: 'https://app.example.com',
        MAX_BODY_BYTES: '4096',
        LISTEN_MAX_SECONDS: '1',
        UPSTREAM_URL: upstreamUrl,
        AUTH_MODE: 'jwt',
        AUTH_ISSUER: authTenant.issuer,
        AUTH_RESOURCE: 'https://mcp.example.com/mcp',
        AUTH_SCOPES: 'mcp:read mcp:admin',
        REQUEST_LOGS: 'on',
      },
      secrets: { MCP_STATE_SECRET: 'auth fixture secret' },
    },
    specUrl: { ...spec, vars: specSettings },
    specBearerUrl: {
      ...spec,
      vars: { ...specSettings, AUTH_MODE: 'bearer' },
      secrets: { ...spec.secrets, MCP_BEARER_TOKEN: 'spec-bearer-token' },
    },
    specJwtUrl: {
      ...spec,
      vars: {
        ...specSettings,
        AUTH_MODE: 'jwt',
        AUTH_ISSUER: specTenant.issuer,
        AUTH_RESOURCE: 'https://spec.example.com/mcp',
        AUTH_SCOPES: 'spec:read spec:admin',
      },
    },
    specModernOnlyUrl: { ...spec, vars: { ...specSettings, LEGACY_CLIENTS: 'off' } },
  } satisfies Record<string, WorkerdOptions>;
  const workers = await Promise.all(
    Object.entries(fixtures).map(async ([name, options]) => {
      const worker = await startInWorkerd(options);
      project.provide(name as keyof typeof fixtures, `${worker.url}/mcp`);
      return worker;
    }),
  );
  project.provide('upstreamUrl', upstreamUrl);
  project.provide('authSigner', await authTenant.signer('test-key'));
  project.provide('specSigner', await specTenant.signer('spec-key', 'https://spec.example.com/mcp'));
  return async () => {
    await Promise.all(workers.map((worker) => worker.dispose()));
    await issuer.close();
    upstream.closeAllConnections();
    upstream.close();
  };
}
