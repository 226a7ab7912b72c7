/**
 * JWT access tokens verified with jose against the issuer's keys (`./jwks.ts`): signature,
 * `iss`, `aud` (this resource, AUTH_RESOURCE), `exp` required (RFC 9068 2.2) and `nbf` and `iat`
 * held to a small clock skew, a `sub` (a person), or the signs of client credentials (a machine,
 * `./tokenHolder.ts`).
 * A token that cannot be verified because the keys cannot be had is neither accepted nor
 * refused: the caller answers 503 (`IssuerUnreachable`), never invalid_token.
 */
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { type Caller, scopeTokens } from '../mcp/internal.js';
import { addressedTo } from './audience.js';
import { unreachable, type Verifier } from '../http/auth/auth.js';
import { issuerKeysFor, joseVerdict, verifiedWith } from './jwks.js';
import { tokenHolder } from './tokenHolder.js';

/** How far a token's `exp` and `nbf` may be off this isolate's clock. */
const CLOCK_SKEW_SECONDS = 30;

/** What jose checks of every token, in jwt and access modes: the issuer, an `exp` (RFC 9068 2.2: a token without one would never expire), the times within the skew. */
export const JWT_CHECKS = (issuer: string) => ({ issuer, requiredClaims: ['exp'], clockTolerance: CLOCK_SKEW_SECONDS });

/** RFC 7519 4.1.6: `iat` is when the token was issued; one later than now (beyond the skew) was not issued by a sane clock, and is refused. */
export const issuedInThePast = ({ iat }: JWTPayload) =>
  iat === undefined || (typeof iat === 'number' && iat <= Date.now() / 1000 + CLOCK_SKEW_SECONDS);

export const verifyJwt: Verifier<JwtAuthSettings> = async (token, auth, lifetime) => {
  const verdict = await verifiedWith(
    issuerKeysFor(auth, auth.jwksUrl, auth.jwksTimeoutMs),
    lifetime,
    (getKey) =>
      joseVerdict(async () => callerOf((await jwtVerify(token, getKey, JWT_CHECKS(auth.issuer))).payload, auth)),
    () => plausible(token, auth.issuer, (payload) => callerOf(payload, auth)),
  );
  return verdict !== undefined && 'retryAfterMs' in verdict ? unreachable(verdict.retryAfterMs) : verdict;
};

/** The caller of a verified token addressed to AUTH_RESOURCE (its claims as the issuer signed them; a person or a machine, `./tokenHolder.ts`), or undefined. */
function callerOf(payload: JWTPayload, { issuer, resource }: JwtAuthSettings): Caller | undefined {
  const holder = tokenHolder(payload);
  if (!holder || !addressedTo(payload.aud, resource) || !issuedInThePast(payload)) return undefined;
  return {
    ...holder,
    issuer,
    scopes: scopeTokens(payload.scope),
    // A JWT's claims set is a JSON object (RFC 7519 4), parsed by jose from JSON.
    claims: payload as Caller['claims'],
    ...expiryOf(payload),
  };
}

/** The caller's expiry, the token's `exp` (RFC 7519 4.1.4, seconds), which jose has required and checked. */
export const expiryOf = ({ exp }: JWTPayload): Pick<Caller, 'expiresAt'> =>
  typeof exp === 'number' ? { expiresAt: exp * 1000 } : {};

/**
 * Whether an unverified token could pass once its key is found: decoded, not checked; from
 * `issuer`, within its times, and with a caller (`callerOf`, the mode's own reading).
 */
export function plausible(
  token: string,
  issuer: string,
  callerOf: (payload: JWTPayload) => Caller | undefined,
): boolean {
  let payload: JWTPayload;
  try {
    if (typeof decodeProtectedHeader(token).alg !== 'string') return false;
    payload = decodeJwt(token);
  } catch {
    return false;
  }
  const now = Date.now() / 1000;
  const { exp, nbf } = payload;
  if (payload.iss !== issuer) return false;
  if (!(typeof exp === 'number' && exp > now - CLOCK_SKEW_SECONDS) || !issuedInThePast(payload)) return false;
  if (nbf !== undefined && !(typeof nbf === 'number' && nbf <= now + CLOCK_SKEW_SECONDS)) return false;
  return callerOf(payload) !== undefined;
}

/** Tokens from `issuer`, for `resource`, which comes from configuration only (never the request). */
export interface JwtAuthSettings {
  mode: 'jwt';
  /** AUTH_ISSUER: the `iss` every token must carry. */
  issuer: string;
  /** AUTH_JWKS_URL: the issuer's keys (default `<issuer>/.well-known/jwks.json`). */
  jwksUrl: string;
  /** AUTH_JWKS_TIMEOUT_MS: how long a fetch of the issuer's keys may take. */
  jwksTimeoutMs: number;
  /** AUTH_RESOURCE: this server's resource identifier, the `aud` tokens must name. */
  resource: string;
  /** AUTH_SERVERS: authorization servers to advertise (default the issuer). */
  authorizationServers: readonly string[];
  /** AUTH_SCOPES: scopes to advertise. */
  scopesSupported: readonly string[];
}
