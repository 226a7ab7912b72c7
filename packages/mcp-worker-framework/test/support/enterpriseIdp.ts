/**
 * The tests' enterprise identity providers (Enterprise-Managed Authorization): loopback stand-ins
 * over TLS, as the sign-in library trusts only https issuers and key sets (the certificate and its
 * CA: test/fixtures/tls/). Each has a path of its own (`/<name>`, its JWKS at `/<name>/jwks`), an
 * RS256 key made with jose, and issues ID-JAGs (the extension's 4.3: `typ: oauth-id-jag+jwt`,
 * `iss`, `sub`, `aud`, `resource`, `client_id`, `jti`, `exp`, `iat`, `scope`) as a company's
 * identity provider would after its token exchange. A test can take one's keys down, and forge
 * assertions the ways an attacker would (`alg: none`, HS256 keyed with the public key).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/** The JOSE `typ` of an ID-JAG (draft-ietf-oauth-identity-assertion-authz-grant 3.1). */
export const ID_JAG_TYP = 'oauth-id-jag+jwt';

export interface IdentityProvider {
  /** The `iss` of its assertions: `https://127.0.0.1:<port>/<name>`. */
  readonly issuer: string;
  /** Its keys (`<issuer>/jwks`). */
  readonly jwksUrl: string;
  /** When true, its JWKS answers 503. */
  down: boolean;
  /** JWKS requests received so far, answered or not. */
  fetches: number;
  /** An ID-JAG signed with its RS256 key: `sub`, a fresh `jti`, issued now, valid 5 minutes; `claims` add to or override these. */
  idJag(claims: JWTPayload): Promise<string>;
  /** The same assertion with `alg: none` and no signature. */
  unsigned(claims: JWTPayload): string;
  /** The same assertion signed HS256 with its RSA public key (SPKI PEM) as the HMAC secret: the algorithm-confusion forgery. */
  hs256WithPublicKey(claims: JWTPayload): Promise<string>;
}

export interface EnterpriseIdps {
  provider(name: string): Promise<IdentityProvider>;
  close(): Promise<void>;
}

const TLS = join(import.meta.dirname, '..', 'fixtures', 'tls');
let jtis = 0;

export async function startEnterpriseIdps(): Promise<EnterpriseIdps> {
  const providers = new Map<string, { provider: IdentityProvider; jwks: object }>();
  const server = createServer(
    { key: readFileSync(join(TLS, 'idp.key')), cert: readFileSync(join(TLS, 'idp.pem')) },
    (req, res) => {
      const name = /^\/([\w-]+)\/jwks$/.exec(req.url ?? '')?.[1];
      const entry = name === undefined ? undefined : providers.get(name);
      if (!entry) return void res.writeHead(404).end();
      entry.provider.fetches++;
      if (entry.provider.down)
        return void res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '30' }).end('maintenance');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(entry.jwks));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = async (name: string): Promise<IdentityProvider> => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = `${name}-key`;
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] };
    const issuer = `${base}/${name}`;
    const payload = (claims: JWTPayload): JWTPayload => {
      const now = Math.floor(Date.now() / 1000);
      return { iss: issuer, sub: 'U019488227', jti: `jti-${++jtis}-${now}`, iat: now, exp: now + 300, ...claims };
    };
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const created: IdentityProvider = {
      issuer,
      jwksUrl: `${issuer}/jwks`,
      down: false,
      fetches: 0,
      idJag: (claims) =>
        new SignJWT(payload(claims)).setProtectedHeader({ alg: 'RS256', kid, typ: ID_JAG_TYP }).sign(privateKey),
      unsigned: (claims) => `${encode({ alg: 'none', typ: ID_JAG_TYP })}.${encode(payload(claims))}.`,
      hs256WithPublicKey: async (claims) =>
        new SignJWT(payload(claims))
          .setProtectedHeader({ alg: 'HS256', kid, typ: ID_JAG_TYP })
          .sign(new TextEncoder().encode(await exportSPKI(publicKey))),
    };
    providers.set(name, { provider: created, jwks });
    return created;
  };

  return {
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
