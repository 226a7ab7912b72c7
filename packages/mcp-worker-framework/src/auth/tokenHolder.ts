/**
 * Who holds a token the `jwt` and `introspect` modes admit: a person, or a machine that got it
 * by client credentials (OAuth 2.1 4.2; MCP's extension oauth-client-credentials) and acts for
 * itself. An access token names no grant, so the signs are read the way authorization servers
 * write them, and only unambiguous ones count (docs/production.md, "Machine clients"):
 *
 * - `client_id` present and `sub` equal to it: RFC 9068 2.2 ("where no resource owner is
 *   involved, such as the client credentials grant, sub SHOULD correspond to an identifier the
 *   authorization server uses to indicate the client application"), which its section 5 asks the
 *   server to keep apart from its users' subjects (Okta, and every server that follows RFC 9068);
 * - no `sub` at all, no `username`, and a `client_id` (an RFC 7662 answer about a client's own token);
 * - `gty: "client-credentials"` (Auth0, whose `sub` is then `<client id>@clients`);
 * - `idtyp: "app"` (Microsoft Entra ID's app-only tokens, with that optional claim turned on).
 *
 * Anything else is a person. A machine's subject is `client_id:<its client id>`, a namespace of
 * its own: a person's `sub` that starts with `client_id:` names nobody and is refused, so a
 * `visibleTo` rule, a task's owner or a rate limit never takes one for the other.
 */
import { isSubject } from '../http/auth/auth.js';

/** A machine's subject is its client id after this prefix; a person's `sub` never starts with it. */
const MACHINE_PREFIX = 'client_id:';

/** Who a token names: a person (its `sub`), a machine (its prefixed client id), or nobody (undefined). */
export type TokenHolder = { kind: 'person' | 'machine'; subject: string } | undefined;

/** The holder of a verified token's claims or an introspection answer; undefined when it names nobody. */
export function tokenHolder(claims: Readonly<Record<string, unknown>>): TokenHolder {
  const { sub, client_id: clientId } = claims;
  if (isMachine(claims)) {
    // The client's own id where the token gives one; else the id the server names the client by (azp, appid, sub).
    const id = [clientId, claims.azp, claims.appid, sub].find((value) => typeof value === 'string' && value !== '');
    const subject = `${MACHINE_PREFIX}${id}`;
    return id !== undefined && isSubject(subject) ? { kind: 'machine', subject } : undefined;
  }
  return isSubject(sub) && !sub.startsWith(MACHINE_PREFIX) ? { kind: 'person', subject: sub } : undefined;
}

/** The unambiguous signs of a client-credentials token (this module's comment). */
function isMachine({ sub, client_id: clientId, username, gty, idtyp }: Readonly<Record<string, unknown>>): boolean {
  if (gty === 'client-credentials' || idtyp === 'app') return true;
  if (typeof clientId !== 'string' || clientId === '') return false;
  return sub === clientId || (sub === undefined && (username === undefined || username === ''));
}
