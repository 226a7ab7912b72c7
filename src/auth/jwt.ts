/** AUTH_MODE = "jwt": OAuth access tokens signed by AUTH_ISSUER for AUTH_RESOURCE, checked against its JWKS (`../http/jwt.ts`, jose). */
import type { AuthMode } from '../http/auth';
import { verifyJwt } from '../http/jwt';
import type { JwtAuthSettings } from '../http/settings';

export const jwt: AuthMode<JwtAuthSettings> = { name: 'jwt', verify: (token, auth, _env, lifetime) => verifyJwt(token, auth, lifetime) };
