/**
 * JWT access tokens verified with jose against the issuer's keys (`./jwks.ts`): signature,
 * `iss`, `aud` (this resource, AUTH_RESOURCE), `exp`/`nbf` with a small clock skew, a `sub`.
 * A token that cannot be verified because the keys cannot be had is neither accepted nor
 * refused: the caller answers 503 (`IssuerUnreachable`), never invalid_token.
 */
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Caller } from '../mcp/request';
import type { JwtVerifier } from './auth';
import { IssuerKeys } from './jwks';
import type { JwtAuthSettings } from './settings';

const CLOCK_SKEW_SECONDS = 30;
/** One key cache per deployment's settings (parsed once per isolate). */
const keysBySettings = new WeakMap<JwtAuthSettings, IssuerKeys>();
/** jose's verdict when no key of the set has the token's `kid`. */
const UNKNOWN_KEY = Symbol('unknown key');

export const verifyJwt: JwtVerifier = async (token, auth, lifetime) => {
  let keys = keysBySettings.get(auth);
  if (keys === undefined) keysBySettings.set(auth, (keys = new IssuerKeys(auth.jwksUrl, auth.jwksTimeoutMs)));
  const now = Date.now();
  const inHand = keys.inHand(now, lifetime);
  if (inHand !== undefined) {
    const verdict = await verifyWith(token, inHand, auth);
    if (verdict !== UNKNOWN_KEY) return verdict;
  }
  // No keys in hand, or none with this token's key id: a token refused whatever the keys say
  // (malformed, expired, another issuer or audience) costs no fetch.
  if (!plausible(token, auth)) return undefined;
  const fetched = await keys.since(now, inHand !== undefined, lifetime);
  if (typeof fetched !== 'function') return { unreachable: true, retryAfterSeconds: Math.max(1, Math.ceil(fetched.retryAfterMs / 1000)) };
  const verdict = await verifyWith(token, fetched, auth);
  return verdict === UNKNOWN_KEY ? undefined : verdict;
};

async function verifyWith(token: string, getKey: JWTVerifyGetKey, auth: JwtAuthSettings): Promise<Caller | undefined | typeof UNKNOWN_KEY> {
  try {
    const { payload } = await jwtVerify(token, getKey, { issuer: auth.issuer, clockTolerance: CLOCK_SKEW_SECONDS });
    return callerOf(payload, auth.resource);
  } catch (error) {
    // expired, not yet valid, wrong issuer, bad signature, unsupported algorithm: invalid_token
    return (error as { code?: unknown } | null)?.code === 'ERR_JWKS_NO_MATCHING_KEY' ? UNKNOWN_KEY : undefined;
  }
}

/** The caller of a verified token addressed to `resource` (its claims as the issuer signed them), or undefined. */
function callerOf(payload: JWTPayload, resource: string): Caller | undefined {
  if (typeof payload.sub !== 'string' || !addressedTo(payload.aud, resource)) return undefined;
  return {
    subject: payload.sub,
    scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
    // A JWT's claims set is a JSON object (RFC 7519 4), parsed by jose from JSON.
    claims: payload as Caller['claims'],
  };
}

/** Whether an unverified token could pass once its key is found: decoded, not checked. */
function plausible(token: string, auth: JwtAuthSettings): boolean {
  let payload: JWTPayload;
  try {
    if (typeof decodeProtectedHeader(token).alg !== 'string') return false;
    payload = decodeJwt(token);
  } catch {
    return false;
  }
  const now = Date.now() / 1000;
  const { exp, nbf } = payload;
  if (payload.iss !== auth.issuer) return false;
  if (exp !== undefined && !(typeof exp === 'number' && exp > now - CLOCK_SKEW_SECONDS)) return false;
  if (nbf !== undefined && !(typeof nbf === 'number' && nbf <= now + CLOCK_SKEW_SECONDS)) return false;
  return callerOf(payload, auth.resource) !== undefined;
}

/**
 * spec 2026-07-28 basic/authorization, Canonical Server URI: the audience is this resource,
 * with scheme and host compared case-insensitively (RFC 3986 6.2.2.1) and the rest exactly.
 */
function addressedTo(aud: unknown, resource: string): boolean {
  if (aud === resource) return true;
  const wanted = canonical(resource);
  if (typeof aud === 'string') return canonical(aud) === wanted;
  return Array.isArray(aud) && aud.some((one) => one === resource || (typeof one === 'string' && canonical(one) === wanted));
}

const SCHEME_AND_AUTHORITY = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i;

/** Scheme and host in lower case; userinfo, port, path, query as they are. */
const canonical = (uri: string) =>
  uri.replace(SCHEME_AND_AUTHORITY, (_, scheme: string, authority: string) => {
    const at = authority.lastIndexOf('@') + 1;
    return scheme.toLowerCase() + authority.slice(0, at) + authority.slice(at).toLowerCase();
  });
