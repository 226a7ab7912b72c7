/** AUTH_MODE = "access": Cloudflare Access in front, its token in `Cf-Access-Jwt-Assertion` (`../http/access.ts`, jose; docs/access.md). */
import { verifyAccess } from '../http/access';
import { ACCESS_HEADER, type AuthMode } from '../http/auth';
import type { AccessAuthSettings } from '../http/settings';

export const access: AuthMode<AccessAuthSettings> = { name: 'access', header: ACCESS_HEADER, verify: (assertion, auth, _env, lifetime) => verifyAccess(assertion, auth, lifetime) };
