/**
 * Enterprise sign-in (docs/sign-in.md, "Enterprise sign-in"): MCP's Enterprise-Managed
 * Authorization (extensions/auth/enterprise-managed-authorization). A person already signed in to
 * their company's identity provider gets from it an Identity Assertion JWT Authorization Grant
 * (ID-JAG) naming this server; their client presents it at `/oauth/token` with the RFC 7523
 * JWT-bearer grant and gets an access token, with no browser and no consent page.
 *
 * `@cloudflare/workers-oauth-provider` validates the assertion (its `typ`, signature against the
 * identity provider's keys, issuer, audience, the client it was issued to, resource, times,
 * lifetime, `jti`) and issues the token, with no refresh token. This module gives it what it
 * leaves to the deployment: the identity providers trusted, checked (https only, the algorithms
 * it can verify); the person's subject, namespaced by their issuer so that no enterprise subject
 * can equal another issuer's or an upstream sign-in's; the scopes, cut to what the assertion
 * allows and this server supports; single use of each assertion across locations
 * (`./assertionObject.ts`); and a 503 with Retry-After, never `invalid_grant`, when the identity
 * provider's keys or the single-use store cannot be reached.
 */
import type { EmaOptions, EmaTrustedIssuer, OAuthErrorInternal } from '@cloudflare/workers-oauth-provider';
import { type Extension, scopeTokens, sha256Hex, type WorkerEnv } from '../mcp/internal.js';
import { firstUse } from './singleUse.js';
import { MAX_USER_ID_CHARS } from './limits.js';
import { oauthError, RETRY_AFTER_SECONDS } from './oauthError.js';
import { boundedClaims } from './upstream.js';

/** The extension's identifier in `capabilities.extensions` of `server/discover` (the MCP docs' extension list). */
const ENTERPRISE_EXTENSION = 'io.modelcontextprotocol/enterprise-managed-authorization';

/** The algorithms the library verifies an ID-JAG with. */
export type EnterpriseAlgorithm = 'RS256' | 'ES256';
const ALGORITHMS: readonly EnterpriseAlgorithm[] = ['RS256', 'ES256'];

/** An enterprise identity provider whose people this server serves. */
export interface EnterpriseIdentityProvider {
  /** The `iss` of its ID-JAGs, exactly as it writes it: an https URL. */
  readonly issuer: string;
  /** Where its signing keys are (its JWKS): an https URL. */
  readonly jwksUrl: string;
  /** The algorithms it signs ID-JAGs with (a sample assertion's `alg` says which): RS256 (the default), ES256, or both. */
  readonly algorithms?: readonly EnterpriseAlgorithm[];
}

/**
 * For many tenants: the identity provider of an assertion's `iss` (untrusted until its signature
 * is checked with the keys this returns), or undefined when none is trusted. Return only
 * providers your own records list: the JWKS URL is fetched by this Worker.
 */
export type EnterpriseResolver = (
  issuer: string,
  env: WorkerEnv,
) => Promise<EnterpriseIdentityProvider | undefined> | EnterpriseIdentityProvider | undefined;

/** `signIn({ enterprise })`: the identity providers trusted, as a list or a resolver. */
export interface EnterpriseOptions {
  readonly identityProviders: readonly EnterpriseIdentityProvider[] | EnterpriseResolver;
}

/** What an enterprise grant keeps (the library's `props`, encrypted); handlers read it as `caller.props`. */
export type EnterpriseProps = {
  readonly provider: 'enterprise';
  /** The identity provider that vouched for the person: the assertion's `iss`. */
  readonly issuer: string;
  /** Who the person is, as the assertion says it: `iss`, `sub`, `email`, `name`, `client_id`, bounded. */
  readonly claims: Readonly<Record<string, string | number>>;
};

/** The library's defaults, which this server keeps: how far an assertion's times may be off, how long it may live. */
const CLOCK_SKEW_SECONDS = 60;
const MAX_ASSERTION_LIFETIME_SECONDS = 300;

/** Why an identity provider cannot be trusted as written (not https, an algorithm the library cannot verify), or undefined. */
function identityProviderProblem(provider: EnterpriseIdentityProvider): string | undefined {
  for (const [field, value] of [
    ['issuer', provider.issuer],
    ['jwksUrl', provider.jwksUrl],
  ] as const) {
    if (typeof value !== 'string' || !URL.canParse(value) || new URL(value).protocol !== 'https:')
      return `its ${field} must be an https URL (the library trusts nothing else), not ${JSON.stringify(value)?.slice(0, 200)}`;
  }
  const algorithms = provider.algorithms ?? ['RS256'];
  if (algorithms.length === 0 || !algorithms.every((alg) => ALGORITHMS.includes(alg)))
    return `its algorithms must be RS256, ES256 or both, not ${JSON.stringify(algorithms)}`;
  return undefined;
}

/**
 * The identity providers of `options`, checked at load: a list with one the library would
 * silently never trust (not https, an algorithm it cannot verify) stops the Worker here, naming it.
 */
export function checkEnterprise(options: EnterpriseOptions): void {
  const { identityProviders } = options;
  if (typeof identityProviders === 'function') return;
  if (!Array.isArray(identityProviders) || identityProviders.length === 0)
    throw new TypeError(
      'signIn({ enterprise }): identityProviders must list at least one identity provider, or be a resolver (docs/sign-in.md, "Enterprise sign-in")',
    );
  for (const provider of identityProviders) {
    const problem = identityProviderProblem(provider);
    if (problem)
      throw new TypeError(
        `signIn({ enterprise }): the identity provider ${JSON.stringify(provider.issuer)} cannot be trusted: ${problem}`,
      );
  }
}

/** The library's `enterpriseManagedAuthorization` option for these providers, this server's scopes and its single-use store. */
export function enterpriseGrant(options: EnterpriseOptions, scopesSupported: readonly string[]): EmaOptions<WorkerEnv> {
  const lookup = resolverOf(options.identityProviders);
  const supported = new Set(scopesSupported);
  return {
    clockSkewSeconds: CLOCK_SKEW_SECONDS,
    maxAssertionLifetimeSeconds: MAX_ASSERTION_LIFETIME_SECONDS,
    async trustedIssuers({ iss, env }): Promise<EmaTrustedIssuer | null> {
      const provider = await lookup(iss, env);
      if (provider === undefined) return null;
      const problem = identityProviderProblem(provider);
      if (problem) {
        console.error(
          `enterprise sign-in: the resolver's identity provider for this issuer cannot be trusted: ${problem}`,
        );
        return null;
      }
      return {
        issuer: provider.issuer,
        jwksUri: provider.jwksUrl,
        algorithms: [...(provider.algorithms ?? ['RS256'])],
      };
    },
    async mapClaims({ claims, requestedScope, env }) {
      // What the assertion allows (none said: none), of what the client asked for, that this server offers.
      const allowed = new Set(scopeTokens(claims.scope));
      const scope = requestedScope.filter((one) => allowed.has(one) && supported.has(one));
      const userId = await enterpriseUserId(claims.iss, claims.sub);
      const props: EnterpriseProps = {
        provider: 'enterprise',
        issuer: claims.iss,
        claims: boundedClaims({
          iss: claims.iss,
          sub: claims.sub,
          email: claims.email,
          name: claims.name,
          client_id: claims.client_id,
        }),
      };
      // Last: the assertion is spent only by a presentation that gets a token. A store that
      // cannot answer throws, which the library reports as mapper_threw: a 503 (`enterpriseError`).
      const forgetAt = claims.exp + CLOCK_SKEW_SECONDS + 60;
      if (!(await firstUse(env, claims.iss, claims.jti, forgetAt))) return null;
      return { userId, scope, metadata: { issuer: claims.iss }, props };
    },
  };
}

/** The list as a resolver, or the resolver as it is. */
function resolverOf(providers: EnterpriseOptions['identityProviders']): EnterpriseResolver {
  if (typeof providers === 'function') return providers;
  const byIssuer = new Map(providers.map((provider) => [provider.issuer, provider]));
  return (issuer) => byIssuer.get(issuer);
}

/**
 * The grant's userId for an enterprise person: `enterprise-`, 32 hex characters of the SHA-256
 * of their issuer, `-`, their `sub` URL-encoded (no ':', the library's token separator), or its
 * SHA-256 when that would be too long (or the `sub` has no encoding: a lone surrogate). Hex has no '-', so the issuer part ends at the first one:
 * two issuers never share a subject, and none starts as an upstream sign-in's (`github-`, `oidc-`).
 */
export async function enterpriseUserId(issuer: string, sub: string): Promise<string> {
  const prefix = `enterprise-${(await sha256Hex(issuer)).slice(0, 32)}-`;
  const encoded = `${prefix}${uriEncoded(sub) ?? ''}`;
  return encoded.length > prefix.length && encoded.length <= MAX_USER_ID_CHARS
    ? encoded
    : `${prefix}sha256-${await sha256Hex(sub)}`;
}

/** `text` URL-encoded; undefined for text that is no well-formed UTF-16 (a lone surrogate), which has no encoding. */
function uriEncoded(text: string): string | undefined {
  try {
    return encodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The token endpoint's answer to the library's EMA failures, for its `onError`: the identity
 * provider's keys that cannot be fetched (`jwks_fetch_failed`) and the single-use store that
 * cannot answer (`mapper_threw`: `mapClaims` throws for nothing else) are outages, 503
 * `temporarily_unavailable` with Retry-After, never `invalid_grant`, which would tell the client
 * its assertion is bad. Every other failure keeps the library's answer (undefined).
 */
export function enterpriseError(internal: OAuthErrorInternal): Response | undefined {
  if (internal.category !== 'enterprise-managed-authorization') return undefined;
  if (internal.reason !== 'jwks_fetch_failed' && internal.reason !== 'mapper_threw') return undefined;
  const what =
    internal.reason === 'jwks_fetch_failed' ? "the identity provider's signing keys" : 'the single-use store';
  console.warn(`enterprise sign-in: ${what} could not be reached; answered 503`);
  return oauthError(
    503,
    'temporarily_unavailable',
    `${what} could not be reached; retry after the time in Retry-After`,
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );
}

/** What `signIn({ enterprise })` adds to `server/discover`: the extension in `capabilities.extensions`. */
export const enterpriseExtension: Extension = { id: ENTERPRISE_EXTENSION, install: () => ({}) };
