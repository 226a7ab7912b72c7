/** The sign-in mode (docs/sign-in.md): `signIn()` for `auth` in src/index.ts, and what its tools import. */
export { signIn, type SignInOptions } from './signIn.js';
export type { UpstreamProps } from './upstream.js';
export type {
  EnterpriseAlgorithm,
  EnterpriseIdentityProvider,
  EnterpriseOptions,
  EnterpriseProps,
  EnterpriseResolver,
} from './enterprise.js';
/** Enterprise sign-in's single-use store: src/index.ts exports it when `signIn({ enterprise })` is on. */
export { McpAssertion } from './assertionObject.js';
export { githubApiHeaders } from './github.js';
/** For a tool that finds the user's upstream grant revoked: a 401 that sends the client to sign in again. */
export { unauthorized } from '../mcp/internal.js';
