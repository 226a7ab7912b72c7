/**
 * Authorization, stateless (spec 2026-07-28 basic/authorization): the MCP server is an OAuth
 * 2.1 resource server. Every request proves itself with a bearer token, checked here with no
 * storage: a JWT verified against the issuer's JWKS (keys cached per isolate), or, for
 * private deployments, one static secret compared in constant time. Off by default.
 */
import { forbidden, type McpError, unauthorized } from '../mcp/errors';
import type { JwtSettings, Settings } from './settings';

/** Who is calling: the token's subject and the scopes it grants. */
export interface Principal {
  subject: string;
  scopes: readonly string[];
}

/** Admitted (with a principal when auth is on), or refused with the 401 error and its `WWW-Authenticate` challenge. */
export type AuthOutcome = { principal?: Principal; refused?: undefined } | { refused: McpError; challenge: string; principal?: undefined };

/** RFC 9728: where a client finds this resource's metadata. */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';
const encoder = new TextEncoder();

/**
 * Verifies a JWT access token for this resource and returns its principal, or undefined.
 * Supplied by `src/http/jwt.ts` (jose); passed in by the entry so a server without JWT auth
 * does not carry the library.
 */
export type JwtVerifier = (token: string, auth: JwtSettings, audience: string) => Promise<Principal | undefined>;

/**
 * This endpoint's resource identifier (RFC 8707): AUTH_RESOURCE, from configuration only. Never
 * from the request: a `Host` an attacker chooses would make tokens for another server pass.
 */
export const resourceOf = (auth: JwtSettings) => auth.resource;

/**
 * Where this resource's RFC 9728 metadata is, or undefined when there is none to advertise: the
 * document MUST list at least one authorization server (spec 2026-07-28
 * authorization-server-discovery), and a static bearer secret has none.
 */
export const metadataUrl = (settings: Settings, origin: string): string | undefined =>
  settings.auth.authorizationServers.length > 0 ? `${origin}${METADATA_PATH}` : undefined;

/** The RFC 9728 document: resource, authorization servers, scopes, bearer in the header. */
export function protectedResourceMetadata(auth: JwtSettings): Response {
  const body = {
    resource: resourceOf(auth),
    authorization_servers: auth.authorizationServers,
    ...(auth.scopesSupported.length > 0 ? { scopes_supported: auth.scopesSupported } : {}),
    bearer_methods_supported: ['header'],
  };
  return new Response(JSON.stringify(body), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' },
  });
}

/** Checks the request's bearer token; `refused` is the 401 to send when it fails. */
export async function authenticate(request: Request, settings: Settings, origin: string, verifyJwt?: JwtVerifier): Promise<AuthOutcome> {
  const { auth } = settings;
  if (auth.mode === 'none') return {};
  const header = request.headers.get('Authorization');
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  const metadata = metadataUrl(settings, origin);
  if (!token) return refusal(metadata);
  if (auth.mode === 'bearer') {
    return auth.bearerToken && constantTimeEqual(token, auth.bearerToken)
      ? { principal: { subject: 'bearer', scopes: auth.scopesSupported } }
      : refusal(metadata, 'invalid_token');
  }
  if (!verifyJwt) throw new Error('AUTH_MODE = "jwt" needs a JWT verifier: createRouter(server, { verifyJwt })');
  const principal = await verifyJwt(token, auth, resourceOf(auth));
  return principal ? { principal } : refusal(metadata, 'invalid_token');
}

/** The scopes of `needed` the principal lacks. */
export const missingScopes = (principal: Principal | undefined, needed: readonly string[]) =>
  principal ? needed.filter((scope) => !principal.scopes.includes(scope)) : [];

/** 403 with `insufficient_scope` and the challenge naming the scopes to ask for (RFC 6750 3.1). */
export function insufficientScope(metadata: string | undefined, scopes: readonly string[]): { error: McpError; challenge: string } {
  return {
    error: forbidden(`this needs the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(', ')}`),
    challenge: `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"${metadata ? `, resource_metadata="${metadata}"` : ''}`,
  };
}

function refusal(metadata: string | undefined, error?: 'invalid_token'): AuthOutcome {
  const params = [...(metadata ? [`resource_metadata="${metadata}"`] : []), ...(error ? [`error="${error}"`] : [])];
  return {
    refused: unauthorized(error ? 'the access token is invalid or expired' : 'an access token is required'),
    challenge: params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer',
  };
}

/** Compares every byte whatever the inputs, so timing does not reveal a matching prefix. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let difference = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) difference |= (x[i % (x.length || 1)] ?? 0) ^ (y[i % (y.length || 1)] ?? 0);
  return difference === 0;
}
