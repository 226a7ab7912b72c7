/**
 * A loopback stand-in for an OAuth authorization server that a test can break. Each tenant has a
 * path of its own (`/<name>`, its JWKS at `/<name>/.well-known/jwks.json`), so every Worker under
 * test trusts its own issuer and starts with a cold key cache; a tenant serves its keys or fails
 * the way it is told, counts the fetches it receives, and signs tokens with its private keys.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

/** How a tenant answers a JWKS fetch. */
export type Behaviour = 'keys' | 'status-500' | 'status-503' | 'not-json' | 'not-a-jwks' | 'redirect' | 'hang';

export interface Tenant {
  /** The `iss` of its tokens (AUTH_ISSUER); its JWKS is at `<issuer>/.well-known/jwks.json`. */
  readonly issuer: string;
  behaviour: Behaviour;
  /** `Cache-Control: max-age` of its JWKS answers, when set. */
  maxAge: number | undefined;
  /** JWKS requests received so far, answered or not. */
  fetches: number;
  /** Publishes a new signing key (a rotation) under `kid`. */
  addKey(kid: string): Promise<void>;
  /** A token signed with the key `kid` (published or not), for `aud`, valid for 5 minutes; `claims` override. */
  token(kid: string, claims?: Record<string, unknown>): Promise<string>;
}

export interface Issuer {
  tenant(name: string): Promise<Tenant>;
  /** A URL on loopback where nothing listens: connections are refused. */
  readonly refusingUrl: string;
  close(): Promise<void>;
}

export const AUDIENCE = 'https://mcp.example.com/mcp';

export async function startIssuer(): Promise<Issuer> {
  const tenants = new Map<string, { tenant: Tenant; jwks: { keys: object[] } }>();
  const server = createServer((req, res) => {
    const name = /^\/([\w-]+)\/\.well-known\/jwks\.json$/.exec(req.url ?? '')?.[1];
    const entry = name === undefined ? undefined : tenants.get(name);
    if (!entry) return void res.writeHead(404).end();
    const { tenant, jwks } = entry;
    tenant.fetches++;
    const json = { 'content-type': 'application/json', ...(tenant.maxAge === undefined ? {} : { 'cache-control': `max-age=${tenant.maxAge}` }) };
    switch (tenant.behaviour) {
      case 'keys':
        return void res.writeHead(200, json).end(JSON.stringify(jwks));
      case 'status-500':
        return void res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      case 'status-503':
        return void res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '30' }).end('maintenance');
      case 'not-json':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in</body></html>');
      case 'not-a-jwks':
        return void res.writeHead(200, json).end(JSON.stringify({ error: 'temporarily_unavailable' }));
      case 'redirect':
        // To a JWKS that holds the right keys: a Worker that followed it would accept the token.
        return void res.writeHead(302, { location: `/${name}-moved/.well-known/jwks.json` }).end();
      case 'hang':
        return; // never answers; the socket is closed when the issuer stops
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const tenant = async (name: string): Promise<Tenant> => {
    const jwks = { keys: [] as object[] };
    const privateKeys = new Map<string, CryptoKey>();
    const sign = async (kid: string) => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      privateKeys.set(kid, privateKey);
      return { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    };
    const created: Tenant = {
      issuer: `${base}/${name}`,
      behaviour: 'keys',
      maxAge: undefined,
      fetches: 0,
      addKey: async (kid) => void jwks.keys.push(await sign(kid)),
      async token(kid, claims = {}) {
        const key = privateKeys.get(kid) ?? (await sign(kid), privateKeys.get(kid)!);
        const now = Math.floor(Date.now() / 1000);
        return new SignJWT({ sub: `user-of-${name}`, scope: 'mcp:read', iss: created.issuer, aud: AUDIENCE, exp: now + 300, iat: now, ...claims })
          .setProtectedHeader({ alg: 'ES256', kid })
          .sign(key);
      },
    };
    tenants.set(name, { tenant: created, jwks });
    // Where `redirect` points: the same keys, served well.
    tenants.set(`${name}-moved`, { tenant: { ...created, behaviour: 'keys', fetches: 0 }, jwks });
    return created;
  };

  const refusing = createServer();
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  const refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/.well-known/jwks.json`;
  await new Promise<void>((resolve) => refusing.close(() => resolve()));

  return {
    tenant,
    refusingUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

