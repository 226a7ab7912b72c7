/**
 * AUTH_MODE = "jwt": OAuth access tokens, JWTs signed by AUTH_ISSUER for this resource
 * (AUTH_RESOURCE), checked against the issuer's JWKS (`../http/jwt.ts`, jose; keys cached per
 * isolate by `../http/jwks.ts`) (docs/production.md).
 */
import { authMode } from '../http/auth/auth.js';
import { oauthConnect } from './oauthConnect.js';
import { verifyJwt, type JwtAuthSettings } from './verifyJwt.js';
import {
  required,
  SHARED_AUTH_SETTINGS,
  url,
  type SettingDocs,
  type SettingRows,
} from '../http/settings/settingsTable.js';

const { AUTH_ISSUER, AUTH_RESOURCE, AUTH_JWKS_TIMEOUT_MS, AUTH_SERVERS } = SHARED_AUTH_SETTINGS;
const settings = {
  AUTH_ISSUER,
  AUTH_RESOURCE,
  AUTH_JWKS_URL: { default: undefined, accepts: 'an https URL (http only on loopback)', parse: url },
  AUTH_JWKS_TIMEOUT_MS,
  AUTH_SERVERS,
} satisfies SettingRows;

export const jwt = authMode<JwtAuthSettings, typeof settings>({
  name: 'jwt',
  settings,
  parse(values) {
    const { AUTH_ISSUER: issuer, AUTH_RESOURCE: resource } = values;
    if (!issuer) return required('AUTH_ISSUER', 'jwt', ': the issuer of the access tokens, an https URL');
    if (!resource)
      return required(
        'AUTH_RESOURCE',
        'jwt',
        ": this server's resource identifier (the tokens' audience), e.g. https://mcp.example.com/mcp",
      );
    return {
      mode: 'jwt',
      issuer,
      resource,
      jwksUrl: values.AUTH_JWKS_URL ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`,
      jwksTimeoutMs: values.AUTH_JWKS_TIMEOUT_MS,
      authorizationServers: values.AUTH_SERVERS.length > 0 ? values.AUTH_SERVERS : [issuer],
      scopesSupported: values.AUTH_SCOPES,
    };
  },
  verify: (token, auth, _env, lifetime) => verifyJwt(token, auth, lifetime),
  connect: oauthConnect,
});

/** The README's line of each of its own settings (`npm run settings`; not in the Worker's bundle). */
export const docs: SettingDocs<typeof settings> = {
  AUTH_JWKS_URL: {
    shownDefault: '`<issuer>/.well-known/jwks.json`',
    doc: "For `jwt`: where the issuer's signing keys are.",
  },
};
