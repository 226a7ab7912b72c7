/**
 * Authorization, stateless (spec 2026-07-28 basic/authorization): the MCP server is an OAuth
 * 2.1 resource server. Every request proves itself with a bearer token, checked here with no
 * storage: a JWT verified against the issuer's JWKS (keys cached per isolate), an opaque token
 * asked about at the issuer's introspection endpoint (answers cached per isolate), or, for
 * private deployments, one static secret compared in constant time; or, behind Cloudflare
 * Access, the token Access signed for the request. Off by default.
 */
import {
  type AnyTool,
  authorizationServerUnreachable,
  type Caller,
  type Extension,
  tokenInvalid,
  tokenRequired,
  type WorkerEnv,
} from '../../mcp/internal.js';
import type { Step } from '../context.js';
import {
  type AuthConfig,
  type AuthModeBase,
  type AuthOutcome,
  credentialHeader,
  type IssuerUnreachable,
  type Lifetime,
} from './authMode.js';
import { METADATA_PATH } from './challenges.js';
import type { SettingRows } from '../settings/settingsTable.js';

export type { IssuerUnreachable, Lifetime, Verifier } from './authMode.js';

/** Answers 503 in `retryAfterMs` (at least a second): the keys or the introspection endpoint cannot be had. */
export const unreachable = (retryAfterMs: number): IssuerUnreachable => ({
  unreachable: true,
  retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
});

// Pure for esbuild: only the bearer mode compares secrets, and a Worker without it drops this.
const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * An auth mode, one module each (src/auth/, and sign-in's src/signin/signIn.ts): its settings,
 * parser and token check (`./authMode.ts`), and what it adds to the Worker. The entry lists the
 * modes it includes (`createWorker(definition, { auth: [bearer, jwt, access, introspect] })`,
 * src/index.ts): a mode left out takes its rows, its verifier and what that imports out of the
 * Worker, and an AUTH_MODE naming it is refused with a 500 that says so. The one mode listed is
 * served; among several, AUTH_MODE chooses (`./settings.ts`); "none" is always accepted.
 */
// biome-ignore lint/suspicious/noExplicitAny: a list of modes holds each mode's own config type
export interface AuthMode<C extends AuthConfig = any, R extends SettingRows = SettingRows> extends AuthModeBase<C, R> {
  /** Routes it serves (sign-in: its authorization server's), each behind the router's `before` steps. */
  readonly routes?: readonly { readonly path: string; readonly serve: Step }[];
  /** Tools it serves along with the definition's (sign-in: the tools that act as the signed-in user). */
  readonly tools?: readonly AnyTool[];
  /** Extensions it makes true, advertised in `server/discover` (sign-in's enterprise sign-in). */
  readonly extensions?: readonly Extension[];
  /** The Durable Objects it needs of the deployment, which `npm run check` requires (scripts/workerFacts.mjs). */
  readonly durableObjects?: readonly ModeObject[];
}

/** A Durable Object a mode needs (enterprise sign-in's McpAssertion): its binding, its class, and the line of src/index.ts that exports the class. */
export interface ModeObject {
  readonly binding: string;
  readonly className: string;
  readonly exportLine: string;
}

/**
 * A caller's subject as every mode accepts it: a non-empty string of at most 512 characters. It
 * keys rate limits and a task's owner (stored), so one from a token or an answer is bounded here.
 */
export const isSubject = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value.length <= 512;

/** A token or assertion longer than this is no token of ours: refused before any work (and never sent upstream). */
const MAX_TOKEN_CHARS = 8192;

/** RFC 9728 3.1: the metadata of a resource with a path is at the well-known path with that path after it; from configuration, never the Host. */
export function resourceMetadataUrl(resource: string): string {
  const { origin, pathname } = new URL(resource);
  return `${origin}${METADATA_PATH}${pathname === '/' ? '' : pathname}`;
}

/**
 * The RFC 9728 document: resource, authorization servers, scopes, bearer in the header. The
 * resource is AUTH_RESOURCE, the very value tokens are checked against, never the request's Host.
 */
export function protectedResourceMetadata(
  auth: Pick<AuthConfig, 'authorizationServers' | 'scopesSupported'> & { resource: string },
): Response {
  const body = {
    resource: auth.resource,
    authorization_servers: auth.authorizationServers,
    ...(auth.scopesSupported.length > 0 ? { scopes_supported: auth.scopesSupported } : {}),
    bearer_methods_supported: ['header'],
  };
  return new Response(JSON.stringify(body), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' },
  });
}

/**
 * An auth mode as the edge runs it: `mode` with `authenticate` below as its own, so the reading
 * and answering of a credential is in a Worker only when it lists a mode (a Worker that lists
 * none has nothing to check). Every mode is made with it (src/auth/, `signIn()`).
 */
export const authMode = <C extends AuthConfig, R extends SettingRows>(
  mode: Omit<AuthMode<C, R>, 'authenticate'>,
): AuthMode<C, R> => ({
  ...mode,
  // A method, so a copy of the mode with another `verify` (a test's) checks with that one.
  authenticate(request, auth, env, lifetime) {
    return authenticate(request, auth, this, env, lifetime);
  },
});

/**
 * Checks the request's credential with `mode`, the one AUTH_MODE names (the router has refused a
 * mode the entry did not include), under its config `auth`; `refused` is the 401 (or, the issuer
 * unreachable, 503) to send when it fails.
 */
async function authenticate<C extends AuthConfig>(
  request: Request,
  auth: C,
  mode: Pick<AuthModeBase<C>, 'header' | 'verify'>,
  env: WorkerEnv,
  lifetime?: Lifetime,
): Promise<AuthOutcome> {
  // A mode with a header of its own takes it as it is; else the bearer token of Authorization.
  // No Access token: the request did not come through Access (the workers.dev URL, another route).
  const header = request.headers.get(credentialHeader(mode));
  const credential = mode.header ? header : bearerToken(header);
  if (!credential)
    return {
      refused: tokenRequired(mode.header ? `a token in ${mode.header} is required` : 'an access token is required'),
    };
  if (credential.length > MAX_TOKEN_CHARS) return { refused: tokenInvalid() };
  return outcome(await mode.verify(credential, auth, env, lifetime));
}

/** What a verifier's verdict means for the request: admitted, 401 invalid_token, or 503 while it cannot tell. */
function outcome(verdict: Caller | IssuerUnreachable | undefined): AuthOutcome {
  if (verdict === undefined) return { refused: tokenInvalid() };
  if ('unreachable' in verdict)
    return { refused: authorizationServerUnreachable(verdict.what, verdict.retryAfterSeconds) };
  return { caller: verdict };
}

/**
 * The token of `Authorization: Bearer <token>` (RFC 6750 2.1), the scheme in any case (RFC 9110
 * 11.1: auth schemes are case-insensitive).
 */
function bearerToken(header: string | null): string | undefined {
  if (header === null || header.charCodeAt(6) !== 32) return undefined;
  const scheme = header.slice(0, 6);
  if (scheme !== 'Bearer' && scheme.toLowerCase() !== 'bearer') return undefined;
  return header.slice(7).trim() || undefined;
}

/** Compares every byte whatever the inputs, so timing does not reveal a matching prefix. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let difference = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    difference |= (x[i % (x.length || 1)] ?? 0) ^ (y[i % (y.length || 1)] ?? 0);
  return difference === 0;
}
