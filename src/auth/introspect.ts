/** AUTH_MODE = "introspect": opaque tokens asked about at AUTH_INTROSPECTION_URL (RFC 7662, `../http/introspect.ts`). */
import type { AuthMode } from '../http/auth';
import { introspect as introspected } from '../http/introspect';
import type { IntrospectAuthSettings } from '../http/settings';

export const introspect: AuthMode<IntrospectAuthSettings> = { name: 'introspect', verify: (token, auth, _env, lifetime) => introspected(token, auth, lifetime) };
