/** AUTH_MODE = "bearer": one static secret (MCP_BEARER_TOKEN), for private deployments; compared in constant time. */
import type { Caller } from '../mcp/request';
import { constantTimeEqual, type AuthMode } from '../http/auth';
import type { BearerAuthSettings } from '../http/settings';

/** The caller of the one shared secret: it says nothing about who holds it, so no claims. */
const NO_CLAIMS: Caller['claims'] = Object.freeze({});

export const bearer: AuthMode<BearerAuthSettings> = {
  name: 'bearer',
  verify: (token, auth) => (constantTimeEqual(token, auth.bearerToken) ? { subject: 'bearer', scopes: auth.scopesSupported, claims: NO_CLAIMS } : undefined),
};
