/**
 * The tests' company authorization server for machines: a loopback stand-in that issues JWT
 * access tokens by the client-credentials grant (OAuth 2.1 4.2; MCP's extension
 * oauth-client-credentials), to clients it knows, authenticated by `client_secret_basic` or
 * `private_key_jwt` (RFC 7523 2.2), as RFC 9068 shapes them for a grant with no person: `sub` and
 * `client_id` both the client's id, `aud` the `resource` asked for. Its RFC 8414 metadata and
 * its keys are at the usual places, so the official client finds it from a Worker's 401.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK, jwtVerify, SignJWT } from 'jose';

export interface ClientCredentialsServer {
  /** Its issuer (AUTH_ISSUER): the origin, so its metadata is at `/.well-known/oauth-authorization-server`. */
  readonly issuer: string;
  /** Its keys (AUTH_JWKS_URL). */
  readonly jwksUrl: string;
  /** A client that authenticates with a secret. */
  addSecretClient(clientId: string, secret: string): void;
  /** A client that authenticates with a JWT signed by the private half of `publicKey` (`private_key_jwt`). */
  addKeyClient(clientId: string, publicKey: JWK): void;
  /** Token requests answered with a token, by client id. */
  readonly issued: string[];
  close(): Promise<void>;
}

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export async function startClientCredentialsServer(): Promise<ClientCredentialsServer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'cc-key', alg: 'ES256', use: 'sig' }] };
  const secrets = new Map<string, string>();
  const clientKeys = new Map<string, JSONWebKeySet>();
  const issued: string[] = [];
  let issuer = '';

  /** The client the token request authenticates, or undefined. */
  async function authenticated(form: URLSearchParams, authorization: string | undefined): Promise<string | undefined> {
    if (authorization?.startsWith('Basic ')) {
      const [id = '', secret] = Buffer.from(authorization.slice(6), 'base64').toString().split(':');
      const clientId = decodeURIComponent(id);
      return secret !== undefined && secrets.get(clientId) === decodeURIComponent(secret) ? clientId : undefined;
    }
    const assertion = form.get('client_assertion');
    if (form.get('client_assertion_type') !== ASSERTION_TYPE || !assertion) return undefined;
    // RFC 7523 3: iss and sub are the client; aud names this server (its issuer or its token endpoint).
    const clientId = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString()).sub as string;
    const keys = clientKeys.get(clientId);
    if (!keys) return undefined;
    try {
      await jwtVerify(assertion, createLocalJWKSet(keys), {
        issuer: clientId,
        subject: clientId,
        audience: [issuer, `${issuer}/token`],
      });
      return clientId;
    } catch {
      return undefined;
    }
  }

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', async () => {
      const json = (status: number, value: object) =>
        res
          .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(JSON.stringify(value));
      if (req.method === 'GET' && req.url === '/.well-known/oauth-authorization-server')
        return json(200, {
          issuer,
          // A company's server has people too; nothing here serves its authorization endpoint.
          authorization_endpoint: `${issuer}/authorize`,
          response_types_supported: ['code'],
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
          token_endpoint_auth_signing_alg_values_supported: ['ES256'],
        });
      if (req.method === 'GET' && req.url === '/jwks') return json(200, jwks);
      if (req.method !== 'POST' || req.url !== '/token') return json(404, { error: 'not_found' });
      const form = new URLSearchParams(body);
      if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type' });
      const clientId = await authenticated(form, req.headers.authorization);
      if (clientId === undefined) return json(401, { error: 'invalid_client' });
      const resource = form.get('resource');
      if (!resource) return json(400, { error: 'invalid_target' });
      issued.push(clientId);
      const now = Math.floor(Date.now() / 1000);
      const accessToken = await new SignJWT({ client_id: clientId, scope: form.get('scope') ?? '' })
        .setProtectedHeader({ alg: 'ES256', kid: 'cc-key', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setSubject(clientId)
        .setAudience(resource)
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(privateKey);
      json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    addSecretClient: (clientId, secret) => void secrets.set(clientId, secret),
    addKeyClient: (clientId, key) => void clientKeys.set(clientId, { keys: [key] }),
    issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
