/**
 * The caller of a sign-in access token, from what its grant holds (the library's `props`,
 * encrypted with the token): a person signed in through the upstream provider, whose issuer is
 * that provider (GitHub's URL, the OpenID Connect issuer); or, by enterprise sign-in
 * (`./enterprise.ts`), a person their company's identity provider vouched for, its issuer.
 */
import type { ValidatedAccessToken } from '@cloudflare/workers-oauth-provider';
import type { Caller } from '../mcp/internal.js';
import type { EnterpriseProps } from './enterprise.js';
import type { SignInAuthSettings } from './signInSettings.js';
import type { UpstreamProps } from './upstream.js';

/** What a grant of this server holds: an upstream sign-in's props, or an enterprise sign-in's. */
export type GrantProps = UpstreamProps | EnterpriseProps;

export function grantCaller(valid: ValidatedAccessToken<GrantProps>, auth: SignInAuthSettings): Caller {
  const { props } = valid;
  return {
    subject: valid.userId,
    kind: props.provider === 'enterprise' ? 'enterprise' : 'person',
    issuer: props.provider === 'enterprise' ? props.issuer : upstreamIssuer(props, auth),
    scopes: valid.scope,
    claims: props.claims,
    props,
    // The access token's own expiry, from the library (seconds); the upstream's, in `props`, may be none.
    expiresAt: valid.expiresAt * 1000,
  };
}

/** Who vouched for a person signed in upstream: the ID token's `iss`, else the provider the settings name. */
function upstreamIssuer(props: UpstreamProps, { login }: SignInAuthSettings): string {
  if (typeof props.claims.iss === 'string') return props.claims.iss;
  return login.provider === 'github' ? login.githubUrl : login.issuer;
}
