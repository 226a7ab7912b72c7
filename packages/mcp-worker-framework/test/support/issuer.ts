/**
 * The tests' OAuth authorization server: a loopback stand-in whose keys the Workers with
 * AUTH_MODE = "jwt" trust, and which a test can break. Each tenant has a path of its own
 * (`/<name>`, its JWKS at `/<name>/.well-known/jwks.json`), so every Worker under test trusts its
 * own issuer and starts with a cold key cache (a Cloudflare Access team's certs are at
 * `/<name>/cdn-cgi/access/certs`, the same keys); a tenant serves its keys or fails the way it is
 * told, counts the fetches it receives, and signs tokens with its private keys.
 *
 * A test file runs in another process than the global setup that starts the issuer: it gets a
 * tenant's `Signer` (plain data, through `inject`) and signs with `signToken`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

/** How a tenant answers a JWKS fetch. */
export type Behaviour = 'keys' | 'status-500' | 'status-503' | 'not-json' | 'not-a-jwks' | 'redirect' | 'hang';

/** What signs a tenant's tokens: its issuer, the audience they are for, and one private key (JWK) with its `kid`. */
export interface Signer {
  issuer: string;
  audience: string;
  kid: string;
  privateKey: JWK;
}

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
  /** A token signed with the key `kid` (published or not), for AUDIENCE, valid for 5 minutes; `claims` override. */
  token(kid: string, claims?: Record<string, unknown>): Promise<string>;
  /** What signs its tokens with the key `kid` (published or not) for `audience`, to hand to a test file. */
  signer(kid: string, audience?: string): Promise<Signer>;
}

export interface Issuer {
  tenant(name: string): Promise<Tenant>;
  /** A URL on loopback where nothing listens: connections are refused. */
  readonly refusingUrl: string;
  close(): Promise<void>;
}

export const AUDIENCE = 'https://mcp.example.com/mcp';

/** A token from `signer`: its issuer and audience, issued now, valid for 5 minutes; `claims` add to or override these. */
export async function signToken(signer: Signer, claims: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: signer.issuer, aud: signer.audience, iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: signer.kid })
    .sign(await importJWK(signer.privateKey, 'ES256'));
}

export async function startIssuer(): Promise<Issuer> {
  const tenants = new Map<string, { tenant: Tenant; jwks: { keys: object[] } }>();
  const server = createServer((req, res) => {
    // A tenant's keys, at an OAuth issuer's path and at a Cloudflare Access team's (`<team domain>/cdn-cgi/access/certs`).
    const name = /^\/([\w-]+)\/(?:\.well-known\/jwks\.json|cdn-cgi\/access\/certs)$/.exec(req.url ?? '')?.[1];
    const entry = name === undefined ? undefined : tenants.get(name);
    if (!entry) return void res.writeHead(404).end();
    const { tenant, jwks } = entry;
    tenant.fetches++;
    const json = {
      'content-type': 'application/json',
      ...(tenant.maxAge === undefined ? {} : { 'cache-control': `max-age=${tenant.maxAge}` }),
    };
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
    const privateKeys = new Map<string, JWK>();
    /** Makes a key pair under `kid`; tokens for `kid` are signed with its private half from then on. Returns the public half. */
    const makeKey = async (kid: string) => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      privateKeys.set(kid, await exportJWK(privateKey));
      return { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    };
    const created: Tenant = {
      issuer: `${base}/${name}`,
      behaviour: 'keys',
      maxAge: undefined,
      fetches: 0,
      addKey: async (kid) => void jwks.keys.push(await makeKey(kid)),
      async signer(kid, audience = AUDIENCE) {
        if (!privateKeys.has(kid)) await makeKey(kid); // a key nobody published: its tokens are forged
        return { issuer: created.issuer, audience, kid, privateKey: privateKeys.get(kid)! };
      },
      token: async (kid, claims = {}) =>
        signToken(await created.signer(kid), { sub: `user-of-${name}`, scope: 'mcp:read', ...claims }),
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
