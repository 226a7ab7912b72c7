/**
 * JWT access tokens verified with jose against the issuer's JWKS: signature, `iss`, `aud`
 * (this resource), `exp`/`nbf` with a small clock skew. The keys are fetched on first use and
 * cached per isolate (10 minutes, with a cooldown on unknown key ids).
 */
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { JwtVerifier } from './auth';

const CLOCK_SKEW_SECONDS = 30;
const JWKS_CACHE_MS = 10 * 60_000;
const jwksByUrl = new Map<string, JWTVerifyGetKey>();

function jwksFor(url: string): JWTVerifyGetKey {
  let jwks = jwksByUrl.get(url);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(url), { cacheMaxAge: JWKS_CACHE_MS, cooldownDuration: 30_000 });
    jwksByUrl.set(url, jwks);
  }
  return jwks;
}

export const verifyJwt: JwtVerifier = async (token, auth, audience) => {
  try {
    const { payload } = await jwtVerify(token, jwksFor(auth.jwksUrl), { issuer: auth.issuer, audience, clockTolerance: CLOCK_SKEW_SECONDS });
    if (typeof payload.sub !== 'string') return undefined;
    return { subject: payload.sub, scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [] };
  } catch {
    // expired, not yet valid, wrong issuer or audience, bad signature, unknown key: all invalid_token
    return undefined;
  }
};
