/**
 * AUTH_MODE = "access": Cloudflare Access in front of the Worker signs every request it lets
 * through with a JWT in `Cf-Access-Jwt-Assertion`; the Worker checks it as Cloudflare's guide
 * says (developers.cloudflare.com/cloudflare-one/identity/authorization-cookie/validating-json/):
 * signed by one of the team's keys (`<team domain>/cdn-cgi/access/certs`, kept by `./jwks.ts`, so
 * certs that cannot be had are a 503, never a 401), `iss` the team domain, `aud` naming an
 * application's AUD tag (ACCESS_AUD), within its times. The caller is the Access identity: `sub`,
 * every claim (email, and groups or what the identity provider passes), scopes from
 * ACCESS_SCOPES_CLAIM when set.
 *
 * Subjects (docs/access.md): a user's `sub` as it is; a service token, whose `sub` is empty, is
 * `common_name:<common_name>`, so that no service token's subject can equal a user's (tasks and
 * `visibleTo` rules key on the subject). A `sub` that starts with that prefix names nobody, as
 * introspection's subjects are kept apart (`./introspect.ts`).
 */
import { jwtVerify, type JWTPayload } from 'jose';
import { type Caller, scopeTokens } from '../mcp/internal.js';
import { isSubject, unreachable, type Verifier } from '../http/auth/auth.js';
import { issuerKeysFor, joseVerdict, verifiedWith } from './jwks.js';
import { expiryOf, issuedInThePast, JWT_CHECKS, plausible } from './verifyJwt.js';

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

/** A service token's subject is its `common_name` after this prefix; a user's `sub` never starts with it. */
const SERVICE_PREFIX = 'common_name:';

/** The Access identity of a verified token: a user's `sub`, or a service token's prefixed `common_name`; none is no caller. */
function callerOf(payload: JWTPayload, auth: AccessAuthSettings): Caller | undefined {
  const subject = subjectOf(payload);
  if (!isSubject(subject) || !issuedInThePast(payload)) return undefined;
  return {
    subject,
    // A service token names no person: its machine's subject is in a namespace of its own.
    kind: subject.startsWith(SERVICE_PREFIX) ? 'machine' : 'person',
    issuer: auth.issuer,
    scopes: auth.scopesClaim === undefined ? [] : scopeTokens(payload[auth.scopesClaim]),
    claims: payload as Caller['claims'],
    ...expiryOf(payload),
  };
}

/** Who the token names: a user's `sub`, else `common_name:` and a service token's `common_name`; undefined for nobody. */
function subjectOf({ sub, common_name: commonName }: JWTPayload): string | undefined {
  if (sub !== undefined && sub !== '')
    return typeof sub === 'string' && !sub.startsWith(SERVICE_PREFIX) ? sub : undefined;
  return typeof commonName === 'string' && commonName !== '' ? `${SERVICE_PREFIX}${commonName}` : undefined;
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
