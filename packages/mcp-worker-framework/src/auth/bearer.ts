/** AUTH_MODE = "bearer": one static secret (MCP_BEARER_TOKEN), for private deployments; compared in constant time (docs/production.md). */
import type { Caller } from '../mcp/internal.js';
import { constantTimeEqual, authMode } from '../http/auth/auth.js';
import { required, secret, type SettingDocs, type SettingRows } from '../http/settings/settingsTable.js';

interface BearerAuthSettings {
  mode: 'bearer';
  /** MCP_BEARER_TOKEN */
  bearerToken: string;
  scopesSupported: readonly string[];
  authorizationServers: readonly string[];
}

/** The caller of the one shared secret: it says nothing about who holds it, so no claims, no issuer, and no person (`kind: 'machine'`). */
const NO_CLAIMS: Caller['claims'] = Object.freeze({});

const settings = {
  MCP_BEARER_TOKEN: {
    default: undefined,
    accepts: 'the token, with no whitespace around it',
    parse: secret,
    secret: true,
  },
} satisfies SettingRows;

export const bearer = authMode<BearerAuthSettings, typeof settings>({
  name: 'bearer',
  settings,
  parse: ({ MCP_BEARER_TOKEN: token, AUTH_SCOPES: scopesSupported }) =>
    token
      ? { mode: 'bearer', bearerToken: token, scopesSupported, authorizationServers: [] }
      : required('MCP_BEARER_TOKEN', 'bearer', ' (`wrangler secret put MCP_BEARER_TOKEN`)'),
  verify: (token, auth) =>
    constantTimeEqual(token, auth.bearerToken)
      ? { subject: 'bearer', kind: 'machine', scopes: auth.scopesSupported, claims: NO_CLAIMS }
      : undefined,
  connect: {
    signIn: () =>
      'Needs a token: send <code>Authorization: Bearer &lt;token&gt;</code> with the token the server’s owner gave you (each way to connect below shows where).',
    headers: { Authorization: 'Bearer <token>' },
  },
});

/** The README's line of its setting (`npm run settings`; not in the Worker's bundle). */
export const docs: SettingDocs<typeof settings> = {
  MCP_BEARER_TOKEN: { shownDefault: 'unset', doc: 'Secret, for `bearer` (required): the one token clients send.' },
};
