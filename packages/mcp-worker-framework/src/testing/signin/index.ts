/**
 * The test kit for sign-in (docs/sign-in.md), `mcp-worker-framework/testing/signin`: loopback
 * stand-ins of the providers users sign in with (GitHub-shaped and OpenID Connect), a Worker with
 * sign-in on started against them, and a client's side of the flow (an OAuth client that keeps
 * its tokens in memory, a browser that follows redirects and approves the consent page).
 */
export {
  CLIENT_ID,
  CLIENT_SECRET,
  GITHUB_USER,
  type LoginProviders,
  OIDC_SUB,
  type Received,
  startLoginProviders,
} from './loginProviders.js';
export {
  Browser,
  CLIENT_REDIRECT,
  consentHandle,
  flowLines,
  HandClient,
  loggingFetch,
  MemoryOAuthClient,
  pkce,
  type Step,
} from './signInClient.js';
export { type SignInWorker, startSignInWorker } from './signInWorker.js';
