/**
 * The sign-in mode (AUTH_MODE = "signin", docs/sign-in.md): the Worker is its own OAuth 2.1
 * authorization server for MCP clients, built on `@cloudflare/workers-oauth-provider`
 * (`./signInServer.ts`), and signs its users in through an upstream provider (`./github.ts`,
 * `./oidc.ts`). The library serves the protocol (RFC 8414 metadata, the token endpoint and its
 * refresh tokens, revocation, RFC 7591 registration and Client ID Metadata Documents, PKCE S256,
 * RFC 9207 `iss`) and keeps grants in KV (`OAUTH_KV`), props encrypted; `./authorize.ts` owns the
 * pages in between. This module hands the router what it needs: these routes, and the check of
 * `/mcp`'s token.
 */
import type { AuthMode, IssuerUnreachable } from '../http/auth/auth';
import type { HttpContext } from '../http/context';
import type { AnyTool, Caller, WorkerEnv } from '../mcp/internal';
import { authorize, callback } from './authorize';
import { isCredential } from './limits';
import { logStoreFailure } from './oauthError';
import { registration } from './registration';
import {
  AS_METADATA_PATH,
  AUTHORIZE_PATH,
  problem,
  REGISTER_PATH,
  RETRY_AFTER_SECONDS,
  serverOf,
  signInServer,
  TOKEN_PATH,
} from './signInServer';
import { signInDocs, signInSettingsMode, type signInSettings, type SignInAuthSettings } from './signInSettings';
import { library, tokenEndpoint } from './tokenEndpoint';
import { CALLBACK_PATH, type UpstreamProps } from './upstream';

/** The library's endpoints: metadata; registration and the token endpoint with what they take bounded first (./registration.ts, ./tokenEndpoint.ts). Its own CORS and errors. */
function libraryEndpoint(serve: typeof library): (context: HttpContext) => Promise<Response> | Response {
  return (context) => {
    const signIn = serverOf(context);
    return signIn instanceof Response ? signIn : serve(context, signIn, context.request);
  };
}

/**
 * `/mcp`'s token, checked by the library's resource-server validation (`validateToken`: the
 * token's record in KV, its audience this resource, its props decrypted). A token of another
 * shape than the library's is refused before it becomes a key (./limits.ts); KV failing is an
 * outage: 503 with Retry-After naming the store, never a refusal that sends the client back to sign in.
 */
async function verify(
  token: string,
  auth: SignInAuthSettings,
  env: WorkerEnv,
): Promise<Caller | IssuerUnreachable | undefined> {
  if (!isCredential(token)) return undefined;
  try {
    const valid = await signInServer(auth).server.validateToken<UpstreamProps>(auth.resource, token, env);
    if (!valid) return undefined;
    return { subject: valid.userId, scopes: valid.scope, claims: valid.props.claims, props: valid.props };
  } catch (error) {
    logStoreFailure('reading an access token', error);
    return {
      unreachable: true,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      what: 'the grant store (OAUTH_KV) could not be read',
    };
  }
}

interface SignInOptions {
  /** Tools that act as the signed-in user (their handlers read `caller.props`), served only with sign-in. */
  tools?: readonly AnyTool[];
}

/**
 * The sign-in mode, for `auth` in src/index.ts (`createWorker(definition, { auth: [signIn()] })`):
 * the authorization server's routes, the check of `/mcp`'s token, and the tools of `options`.
 */
export function signIn(options: SignInOptions = {}): AuthMode<SignInAuthSettings, typeof signInSettings> {
  return {
    ...signInSettingsMode,
    ...(options.tools ? { tools: options.tools } : {}),
    problem,
    verify,
    routes: [
      { path: AUTHORIZE_PATH, serve: authorize },
      { path: CALLBACK_PATH, serve: callback },
      { path: TOKEN_PATH, serve: libraryEndpoint(tokenEndpoint) },
      { path: REGISTER_PATH, serve: libraryEndpoint(registration) },
      { path: AS_METADATA_PATH, serve: libraryEndpoint(library) },
    ],
  };
}

/** The README's line of each of its own settings (`npm run settings`). */
export const docs = signInDocs;
