/**
 * What the authorization server takes from a stranger, held to the shape and size of what it
 * issues before any of it reaches storage (docs/sign-in.md, "Limits"). KV refuses a key over 512
 * bytes, and a KV error is an outage (503): a value that would make such a key is refused here, as
 * the RFC of its endpoint says, and never sent on to the library.
 */
import type { HttpContext } from '../http/context.js';
import { addressKey } from '../http/rateLimit.js';
/** The longest userId this server makes (`github-<id>`, `oidc-<sub>` or `oidc-sha256-<hash>`). */
export const MAX_USER_ID_CHARS = 256;

/**
 * The library's codes, access and refresh tokens: `userId:grantId:secret`, the grant id and secret
 * its random base64url. The longest KV key one becomes is `token:` + 256 + `:` + 64 + `:` + 64 hex
 * of its hash = 392 bytes.
 */
const CREDENTIAL = /^[\x21-\x39\x3b-\x7e]{1,256}:[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_-]{1,128}$/;

/** Whether `value` has the shape of a code or token the library issues (it may still be unknown). */
export const isCredential = (value: string) => CREDENTIAL.test(value);

/** A client id: the library's random 16 characters, or a metadata document's https URL; printable ASCII, so `client:<id>` stays far below 512 bytes. */
const CLIENT_ID = /^[\x21-\x7e]{1,400}$/;
export const isClientId = (value: string) => CLIENT_ID.test(value);

/** The token endpoint's form (a grant, a refresh, a revocation) is a few short fields. */
export const MAX_TOKEN_FORM_BYTES = 16 * 1024;

/** An authorization request's query (client id, redirect URI, state, PKCE, scope, resource): longer is no request of a client. */
export const MAX_AUTHORIZE_QUERY_CHARS = 8 * 1024;

/** A registration's JSON: a name, a few redirect URIs and a few words; larger is refused with 413 before it is parsed. */
export const MAX_REGISTRATION_BYTES = 8 * 1024;
/** What is kept of a registration (RFC 7591 2), each field at most this: what the consent page shows and the flow needs. */
export const MAX_CLIENT_NAME_CHARS = 200;
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_CHARS = 512;

/**
 * SIGN_IN_RATE_LIMITER (the sign-in block of wrangler.toml): each registration and each consent page counts against
 * its client address before anything is written to OAUTH_KV. Its period, and so the Retry-After of a 429.
 */
export const SIGN_IN_LIMIT_PERIOD_SECONDS = 60;

export async function withinSignInLimit(context: HttpContext, what: 'register' | 'consent'): Promise<boolean> {
  // problem() refuses to serve without the binding: reaching here without one is a bug, which refuses.
  const limiter = context.env.SIGN_IN_RATE_LIMITER;
  return limiter !== undefined && (await limiter.limit({ key: `${what}:${addressKey(context.request)}` })).success;
}
