/**
 * AUTH_MODE = "access": Cloudflare Access in front of the Worker signs every request it lets
 * through with a JWT in `Cf-Access-Jwt-Assertion`; the Worker checks it as Cloudflare's guide
 * says (developers.cloudflare.com/cloudflare-one/identity/authorization-cookie/validating-json/):
 * signed by one of the team's keys (`<team domain>/cdn-cgi/access/certs`, kept by `./jwks.ts`, so
 * certs that cannot be had are a 503, never a 401), `iss` the team domain, `aud` naming an
 * application's AUD tag (ACCESS_AUD), within its times. The caller is the Access identity: `sub` (a service
 * token's `common_name` when `sub` is empty), every claim (email, and groups or what the
 * identity provider passes), scopes from ACCESS_SCOPES_CLAIM when set.
 */
import { jwtVerify, type JWTPayload } from 'jose';
import type { Caller } from '../mcp/request';
import { scopeTokens } from '../mcp/scopes';
import { isSubject, unreachable, type AccessVerifier } from './auth';
import { issuerKeysFor, joseVerdict, verifiedWith } from './jwks';
import { issuedInThePast, JWT_CHECKS, plausible } from './jwt';
import type { AccessAuthSettings } from './settings';

export const verifyAccess: AccessVerifier = async (assertion, auth, lifetime) => {
  const verdict = await verifiedWith(
    issuerKeysFor(auth, auth.certsUrl, auth.certsTimeoutMs),
    lifetime,
    (getKey) =>
      joseVerdict(async () => {
        const { payload } = await jwtVerify(assertion, getKey, { ...JWT_CHECKS(auth.issuer), audience: [...auth.audiences] });
        return callerOf(payload, auth);
      }),
    () => plausible(assertion, auth.issuer, (payload) => (addressedToApp(payload.aud, auth.audiences) ? callerOf(payload, auth) : undefined)),
  );
  return verdict !== undefined && 'retryAfterMs' in verdict ? unreachable(verdict.retryAfterMs) : verdict;
};

/** The Access identity of a verified token: a user's `sub`, or a service token's `common_name`; none is no caller. */
function callerOf(payload: JWTPayload, auth: AccessAuthSettings): Caller | undefined {
  const subject = [payload.sub, payload.common_name].find((one) => one !== '' && one !== undefined);
  if (!isSubject(subject) || !issuedInThePast(payload)) return undefined;
  return { subject, scopes: auth.scopesClaim === undefined ? [] : scopeTokens(payload[auth.scopesClaim]), claims: payload as Caller['claims'] };
}

/** Access puts the AUD tag in a list (`aud: ["<tag>"]`); a string is read too. One of `tags` must be there. */
const addressedToApp = (aud: unknown, tags: readonly string[]) => tags.some((tag) => aud === tag || (Array.isArray(aud) && aud.includes(tag)));
