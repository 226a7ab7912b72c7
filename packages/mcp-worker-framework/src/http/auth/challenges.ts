/**
 * What an authorization refusal tells the client (RFC 6750 3, spec 2026-07-28
 * basic/authorization): the `WWW-Authenticate` challenges and where this resource's RFC 9728
 * metadata is. A leaf, so the error answer (`../transport/errorAnswer.ts`) and the token check both read it.
 */
import type { AuthConfig } from './authMode.js';
import type { Settings } from '../settings/settings.js';

/** RFC 9728: where a client finds this resource's metadata. */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';
/**
 * Where this resource's RFC 9728 metadata is, or undefined when there is none to advertise: the
 * document MUST list at least one authorization server (spec 2026-07-28
 * authorization-server-discovery), and a static bearer secret has none.
 */
export const metadataUrl = ({ auth }: Settings, origin: string): string | undefined =>
  advertisedResource(auth) ? (auth.metadataUrl ?? `${origin}${METADATA_PATH}`) : undefined;

/** The config of a mode whose resource has RFC 9728 metadata: an OAuth resource (jwt, introspect, signin) with an authorization server to name. */
export const advertisedResource = (auth: AuthConfig): (AuthConfig & { resource: string }) | undefined =>
  auth.resource !== undefined && auth.authorizationServers.length > 0
    ? (auth as AuthConfig & { resource: string })
    : undefined;

/** The challenge of a 401 for a token that stopped working after it was verified (a handler found its grant revoked upstream): RFC 6750 3.1. */
export const invalidTokenChallenge = (metadata: string | undefined) =>
  `Bearer ${metadata ? `resource_metadata="${metadata}", ` : ''}error="invalid_token"`;

/** The `WWW-Authenticate` value of a 403 for `scopes` (RFC 6750 3.1). */
export const scopeChallenge = (metadata: string | undefined, scopes: readonly string[]) =>
  `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"${metadata ? `, resource_metadata="${metadata}"` : ''}`;

/**
 * The challenge of a 401 from the token check: where the metadata is and, where there is an
 * authorization server to ask, the scopes to ask it for (spec 2026-07-28 basic/authorization,
 * Scope Selection Strategy); `invalid` when a token was sent and refused (RFC 6750 3.1).
 */
export function tokenChallenge(metadata: string | undefined, scopes: readonly string[], invalid: boolean): string {
  const params = [
    ...(metadata ? [`resource_metadata="${metadata}"`] : []),
    ...(scopes.length > 0 ? [`scope="${scopes.join(' ')}"`] : []),
    ...(invalid ? ['error="invalid_token"'] : []),
  ];
  return params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer';
}

/** The scopes a 401 asks a client to request, where there is an authorization server to ask (offline_access never, as the spec says servers SHOULD NOT). */
export const scopesToAsk = (metadata: string | undefined, { auth }: Settings): readonly string[] =>
  metadata ? auth.scopesSupported.filter((scope) => scope !== 'offline_access') : [];
