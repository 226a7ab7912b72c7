/**
 * The sign-in mode (AUTH_MODE = "signin", docs/sign-in.md): the Worker is its own OAuth 2.1
 * authorization server for MCP clients, built on `@cloudflare/workers-oauth-provider`
 * (`./signInServer.ts`), and signs its users in through an upstream provider (`./github.ts`,
 * `./oidc.ts`). The library serves the protocol (RFC 8414 metadata, the token endpoint and its
 * refresh tokens, revocation, RFC 7591 registration and Client ID Metadata Documents, PKCE S256,
 * RFC 9207 `iss`) and keeps grants in KV (`OAUTH_KV`), props encrypted; `./authorize.ts` owns the
 * pages in between. This module hands the router what it needs: these routes, and the check of
 * `/mcp`'s token; with `enterprise`, the ID-JAG grant too (`./enterprise.ts`).
 */
import { type AuthMode, authMode, type IssuerUnreachable } from '../http/auth/auth.js';
import type { HttpContext } from '../http/context.js';
import type { AnyTool, Caller, WorkerEnv } from '../mcp/internal.js';
import { ASSERTION_OBJECT, singleUseProblem } from './singleUse.js';
import { authorize, callback } from './authorize.js';
import { checkEnterprise, enterpriseExtension, type EnterpriseOptions } from './enterprise.js';
import { grantCaller, type GrantProps } from './grantCaller.js';
import { isCredential } from './limits.js';
import { logStoreFailure } from './oauthError.js';
import { registration } from './registration.js';
import {
  AS_METADATA_PATH,
  AUTHORIZE_PATH,
  problem,
  REGISTER_PATH,
  RETRY_AFTER_SECONDS,
  serverOf,
  type SignInServers,
  signInServers,
  TOKEN_PATH,
} from './signInServer.js';
import { signInDocs, signInSettingsMode, type signInSettings, type SignInAuthSettings } from './signInSettings.js';
import { library, tokenEndpoint } from './tokenEndpoint.js';
import { CALLBACK_PATH } from './upstream.js';

/** The library's endpoints: metadata; registration and the token endpoint with what they take bounded first (./registration.ts, ./tokenEndpoint.ts). Its own CORS and errors. */
function libraryEndpoint(
  serve: typeof library,
  servers: SignInServers,
): (context: HttpContext) => Promise<Response> | Response {
  return (context) => {
    const signIn = serverOf(context, servers);
    return signIn instanceof Response ? signIn : serve(context, signIn, context.request);
  };
}

/**
 * `/mcp`'s token, checked by the library's resource-server validation (`validateToken`: the
 * token's record in KV, its audience this resource, its props decrypted). A token of another
 * shape than the library's is refused before it becomes a key (./limits.ts); KV failing is an
 * outage: 503 with Retry-After naming the store, never a refusal that sends the client back to sign in.
 */
function verifier(servers: SignInServers) {
  return async (
    token: string,
    auth: SignInAuthSettings,
    env: WorkerEnv,
  ): Promise<Caller | IssuerUnreachable | undefined> => {
    if (!isCredential(token)) return undefined;
    try {
      const valid = await servers(auth).server.validateToken<GrantProps>(auth.resource, token, env);
      return valid ? grantCaller(valid, auth) : undefined;
    } catch (error) {
      logStoreFailure('reading an access token', error);
      return {
        unreachable: true,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
        what: 'the grant store (OAUTH_KV) could not be read',
      };
    }
  };
}

export interface SignInOptions {
  /** Tools that act as the signed-in user (their handlers read `caller.props`), served only with sign-in. */
  tools?: readonly AnyTool[];
  /**
   * Enterprise sign-in (docs/sign-in.md, "Enterprise sign-in"): people whose company's identity
   * provider vouches for them get a token with an ID-JAG, no browser. The identity providers
   * trusted, a list (checked here: https only) or a resolver for many tenants. It needs the
   * MCP_ASSERTIONS Durable Object and `export { McpAssertion } from 'mcp-worker-framework/signin'`.
   */
  enterprise?: EnterpriseOptions;
}

/**
 * The sign-in mode, for `auth` in src/index.ts (`createWorker(definition, { auth: [signIn()] })`):
 * the authorization server's routes, the check of `/mcp`'s token, and the tools of `options`.
 */
export function signIn(options: SignInOptions = {}): AuthMode<SignInAuthSettings, typeof signInSettings> {
  const { enterprise } = options;
  if (enterprise) checkEnterprise(enterprise);
  const servers = signInServers({ ...(enterprise ? { enterprise } : {}) });
  return authMode({
    ...signInSettingsMode,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(enterprise ? { extensions: [enterpriseExtension], durableObjects: [ASSERTION_OBJECT] } : {}),
    problem: (auth, env) => problem(auth, env) ?? (enterprise ? singleUseProblem(env) : undefined),
    verify: verifier(servers),
    routes: [
      { path: AUTHORIZE_PATH, serve: (context) => authorize(context, servers) },
      { path: CALLBACK_PATH, serve: (context) => callback(context, servers) },
      { path: TOKEN_PATH, serve: libraryEndpoint(tokenEndpoint, servers) },
      { path: REGISTER_PATH, serve: libraryEndpoint(registration, servers) },
      { path: AS_METADATA_PATH, serve: libraryEndpoint(library, servers) },
    ],
  });
}

/** The README's line of each of its own settings (`npm run settings`). */
export const docs = signInDocs;
