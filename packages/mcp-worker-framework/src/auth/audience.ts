/**
 * Whether a token is addressed to this resource: the one comparison of every auth mode that
 * reads an audience (a JWT's `aud`, an introspection answer's `aud`).
 */

/**
 * spec 2026-07-28 basic/authorization, Canonical Server URI: the audience is this resource,
 * with scheme and host compared case-insensitively (RFC 3986 6.2.2.1) and the rest exactly.
 */
export function addressedTo(aud: unknown, resource: string): boolean {
  if (aud === resource) return true;
  const wanted = canonical(resource);
  if (typeof aud === 'string') return canonical(aud) === wanted;
  return (
    Array.isArray(aud) && aud.some((one) => one === resource || (typeof one === 'string' && canonical(one) === wanted))
  );
}

const SCHEME_AND_AUTHORITY = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i;

/** Scheme and host in lower case; userinfo, port, path, query as they are. */
const canonical = (uri: string) =>
  uri.replace(SCHEME_AND_AUTHORITY, (_, scheme: string, authority: string) => {
    const at = authority.lastIndexOf('@') + 1;
    return scheme.toLowerCase() + authority.slice(0, at) + authority.slice(at).toLowerCase();
  });
