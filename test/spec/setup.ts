/**
 * Global setup of the spec suites: the spec fixture Worker (test/spec/fixture) built once and
 * served by the workerd binary on loopback four times: as it is, with AUTH_MODE = "bearer", with
 * AUTH_MODE = "jwt" trusting an issuer whose JWKS is served here on loopback, and modern-only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type { TestProject } from 'vitest/node';
import { buildBundle, serveWithWorkerd } from '../../scripts/workerd.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The spec fixture's MCP endpoint. */
    specUrl: string;
    /** The same Worker with AUTH_MODE = "bearer" and the token `spec-bearer-token`. */
    specBearerUrl: string;
    /** The same Worker with AUTH_MODE = "jwt", resource `https://spec.example.com/mcp`. */
    specJwtUrl: string;
    /** The same Worker with LEGACY_CLIENTS = "off": a modern-only server. */
    specModernOnlyUrl: string;
    /** The issuer it trusts, and the private key (JWK, kid `spec-key`) that signs for it. */
    specIssuer: string;
    specSigningKey: Record<string, unknown>;
  }
}

const config = 'test/spec/fixture/wrangler.toml';

export default async function setup(project: TestProject) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'spec-key', alg: 'ES256', use: 'sig' }] });
  const issuerServer = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;

  const bundle = buildBundle(config);
  const [plain, bearer, jwt, modernOnly] = await Promise.all([
    serveWithWorkerd({ config, bundle }),
    serveWithWorkerd({ config, bundle, vars: { AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'spec-bearer-token' } }),
    serveWithWorkerd({ config, bundle, vars: { AUTH_MODE: 'jwt', AUTH_ISSUER: issuer, AUTH_RESOURCE: 'https://spec.example.com/mcp', AUTH_SCOPES: 'spec:read spec:admin' } }),
    serveWithWorkerd({ config, bundle, vars: { LEGACY_CLIENTS: 'off' } }),
  ]);
  project.provide('specUrl', `${plain.url}/mcp`);
  project.provide('specBearerUrl', `${bearer.url}/mcp`);
  project.provide('specJwtUrl', `${jwt.url}/mcp`);
  project.provide('specModernOnlyUrl', `${modernOnly.url}/mcp`);
  project.provide('specIssuer', issuer);
  project.provide('specSigningKey', { ...(await exportJWK(privateKey)), kid: 'spec-key', alg: 'ES256' });
  return async () => {
    await Promise.all([plain.stop(), bearer.stop(), jwt.stop(), modernOnly.stop()]);
    issuerServer.closeAllConnections();
    issuerServer.close();
  };
}
