/** The sign-in mode (docs/sign-in.md): what the sign-in configuration's entry and its tools import. */
export { signIn } from './signIn';
export type { UpstreamProps } from './upstream';
export { githubApiHeaders } from './github';
