/** What the page at `/` tells a person of a mode whose tokens an OAuth authorization server issues (jwt, introspect). */
import type { AuthConfig, ConnectHelp } from '../http/auth/authMode.js';

export const oauthConnect: ConnectHelp<AuthConfig> = {
  signIn: (auth, metadataLink) =>
    auth.authorizationServers.length === 0
      ? 'Needs an access token from the server’s authorization server.'
      : `Sign-in with OAuth: your client reads ${metadataLink} and signs you in at the authorization server it names.`,
};
