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
import { type Caller, scopeTokens } from '../mcp/internal';
import { isSubject, unreachable, type Verifier } from './auth';
import { issuerKeysFor, joseVerdict, verifiedWith } from './jwks';
import { issuedInThePast, JWT_CHECKS, plausible } from './jwt';

export const verifyAccess: Verifier<AccessAuthSettings> = async (assertion, auth, lifetime) => {
  const verdict = await verifiedWith(
    issuerKeysFor(auth, auth.certsUrl, auth.certsTimeoutMs),
    lifetime,
    (getKey) =>
      joseVerdict(async () => {
        const { payload } = await jwtVerify(assertion, getKey, {
          ...JWT_CHECKS(auth.issuer),
          audience: [...auth.audiences],
        });
        return callerOf(payload, auth);
      }),
    () =>
      plausible(assertion, auth.issuer, (payload) =>
        addressedToApp(payload.aud, auth.audiences) ? callerOf(payload, auth) : undefined,
      ),
  );
  return verdict !== undefined && 'retryAfterMs' in verdict ? unreachable(verdict.retryAfterMs) : verdict;
};

/** The Access identity of a verified token: a user's `sub`, or a service token's `common_name`; none is no caller. */
function callerOf(payload: JWTPayload, auth: AccessAuthSettings): Caller | undefined {
  const subject = [payload.sub, payload.common_name].find((one) => one !== '' && one !== undefined);
  if (!isSubject(subject) || !issuedInThePast(payload)) return undefined;
  return {
    subject,
    scopes: auth.scopesClaim === undefined ? [] : scopeTokens(payload[auth.scopesClaim]),
    claims: payload as Caller['claims'],
  };
}

/** Access puts the AUD tag in a list (`aud: ["<tag>"]`); a string is read too. One of `tags` must be there. */
const addressedToApp = (aud: unknown, tags: readonly string[]) =>
  tags.some((tag) => aud === tag || (Array.isArray(aud) && aud.includes(tag)));

export interface AccessAuthSettings {
  mode: 'access';
  /** ACCESS_TEAM_DOMAIN: the `iss` of Access tokens, e.g. `https://acme.cloudflareaccess.com`. */
  issuer: string;
  /** `<team domain>/cdn-cgi/access/certs`: the team's signing keys. */
  certsUrl: string;
  /** AUTH_JWKS_TIMEOUT_MS: how long a fetch of the certs may take. */
  certsTimeoutMs: number;
  /** ACCESS_AUD: the applications' AUD tags, one of which tokens must name in `aud`. */
  audiences: readonly string[];
  /** ACCESS_SCOPES_CLAIM: the claim whose values are the caller's scopes, if any. */
  scopesClaim: string | undefined;
  scopesSupported: readonly string[];
  authorizationServers: readonly string[];
}
