/**
 * Who is calling: the one shape a handler, a list and the transport see of the caller, whatever
 * the auth mode. A leaf (types only), so the public API (`define.ts`) and the core's request
 * (`request.ts`) both use it without importing each other.
 */
import type { JsonValue } from './types.js';

/**
 * What holds the credential (docs/server-api.md, "Who is calling"):
 * - `person`: a person, signed in through this Worker's sign-in or by the authorization server
 *   whose tokens the `jwt`, `introspect` or `access` mode checks;
 * - `enterprise`: a person whose company's identity provider vouched for them, with no sign-in
 *   here (sign-in's Enterprise-Managed Authorization, an ID-JAG);
 * - `machine`: a client acting for itself, no person behind it: a client-credentials token, a
 *   Cloudflare Access service token, the one shared secret of `bearer`. Its `subject` is in a
 *   namespace of its own (`client_id:…`, `common_name:…`, `bearer`), never equal to a person's.
 */
export type CallerKind = 'person' | 'enterprise' | 'machine';

/**
 * Who is calling, once authorization has admitted them: one shape in every auth mode
 * (docs/server-api.md, "Who is calling"). A field a mode does not have is absent, never an
 * empty string: `props` exists only in the sign-in mode.
 */
export interface Caller {
  /** The token's `sub` (jwt), the Access identity's `sub` (access), the introspection answer's `sub` (introspect); `bearer` for the shared secret; a machine's in a namespace of its own. */
  readonly subject: string;
  /** A person, a person through their enterprise, or a machine (`CallerKind`). */
  readonly kind: CallerKind;
  /** Who vouched for the subject: the token's issuer, the Access team domain, the sign-in provider, the enterprise identity provider; absent for the shared secret. */
  readonly issuer?: string;
  /** The scopes it grants, the ones they imply included (the server's `scopeHierarchy`). */
  readonly scopes: readonly string[];
  /** What the verified credential says: the token's claims, the introspection answer, the Access identity (email, groups); `{}` for the shared secret. */
  readonly claims: Readonly<Record<string, JsonValue>>;
  /** Sign-in mode only: what was stored when the user authorized (e.g. the upstream token). */
  readonly props?: Readonly<Record<string, JsonValue>>;
  /**
   * When the credential the caller presented expires, in milliseconds since the epoch: the token's
   * `exp` (jwt, access, introspect when the answer gives one), the access token's own expiry
   * (signin, never the upstream's); absent when it does not (bearer). A listen stream ends then.
   */
  readonly expiresAt?: number;
}
