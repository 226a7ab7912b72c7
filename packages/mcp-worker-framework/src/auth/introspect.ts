/**
 * AUTH_MODE = "introspect": opaque tokens, each asked about at the authorization server's
 * introspection endpoint, AUTH_INTROSPECTION_URL (RFC 7662, `../http/introspect.ts`; answers kept
 * per isolate) (docs/production.md).
 */
import { authMode } from '../http/auth/auth.js';
import { oauthConnect } from './oauthConnect.js';
import { type IntrospectAuthSettings, verifyIntrospection } from './verifyIntrospection.js';
import {
  integer,
  oneOf,
  required,
  secret,
  SHARED_AUTH_SETTINGS,
  trimmed,
  url,
  type SettingDocs,
  type SettingRows,
} from '../http/settings/settingsTable.js';

const { AUTH_ISSUER, AUTH_RESOURCE, AUTH_SERVERS } = SHARED_AUTH_SETTINGS;
const settings = {
  AUTH_INTROSPECTION_URL: { default: undefined, accepts: 'an https URL (http only on loopback)', parse: url },
  AUTH_INTROSPECTION_CLIENT_ID: {
    default: undefined,
    accepts: 'the client id the authorization server gave this server, with no whitespace around it',
    parse: trimmed,
  },
  AUTH_INTROSPECTION_CLIENT_SECRET: {
    default: undefined,
    accepts: 'the client secret, with no whitespace around it',
    parse: secret,
    secret: true,
  },
  AUTH_INTROSPECTION_CACHE_SECONDS: {
    default: 60,
    accepts: 'a whole number of seconds from 0 to 3600',
    parse: integer(0, 3600),
  },
  AUTH_INTROSPECTION_TIMEOUT_MS: {
    default: 3000,
    accepts: 'a whole number of milliseconds from 1 to 30000',
    parse: integer(1, 30_000),
  },
  AUTH_INTROSPECTION_AUD: {
    default: 'required',
    accepts: '`required` or `optional`',
    parse: oneOf('required', 'optional'),
  },
  AUTH_ISSUER,
  AUTH_RESOURCE,
  AUTH_SERVERS,
} satisfies SettingRows;

export const introspect = authMode<IntrospectAuthSettings, typeof settings>({
  name: 'introspect',
  settings,
  parse(values) {
    const {
      AUTH_INTROSPECTION_URL: endpoint,
      AUTH_INTROSPECTION_CLIENT_ID: clientId,
      AUTH_INTROSPECTION_CLIENT_SECRET: clientSecret,
      AUTH_RESOURCE: resource,
    } = values;
    if (!endpoint)
      return required('AUTH_INTROSPECTION_URL', 'introspect', ': the RFC 7662 introspection endpoint, an https URL');
    if (!clientId)
      return required('AUTH_INTROSPECTION_CLIENT_ID', 'introspect', ': the client id this server introspects with');
    if (!clientSecret)
      return required(
        'AUTH_INTROSPECTION_CLIENT_SECRET',
        'introspect',
        ' (`wrangler secret put AUTH_INTROSPECTION_CLIENT_SECRET`)',
      );
    if (!resource)
      return required(
        'AUTH_RESOURCE',
        'introspect',
        ": this server's resource identifier (the tokens' audience), e.g. https://mcp.example.com/mcp",
      );
    const issuer = values.AUTH_ISSUER;
    return {
      mode: 'introspect',
      url: endpoint,
      issuer,
      clientId,
      clientSecret,
      resource,
      audienceOptional: values.AUTH_INTROSPECTION_AUD === 'optional',
      cacheSeconds: values.AUTH_INTROSPECTION_CACHE_SECONDS,
      timeoutMs: values.AUTH_INTROSPECTION_TIMEOUT_MS,
      authorizationServers: values.AUTH_SERVERS.length > 0 ? values.AUTH_SERVERS : issuer !== undefined ? [issuer] : [],
      scopesSupported: values.AUTH_SCOPES,
    };
  },
  verify: (token, auth, _env, lifetime) => verifyIntrospection(token, auth, lifetime),
  connect: oauthConnect,
});

/** The README's line of each of its own settings (`npm run settings`; not in the Worker's bundle). */
export const docs: SettingDocs<typeof settings> = {
  AUTH_INTROSPECTION_URL: {
    shownDefault: 'empty',
    doc: "For `introspect` (required): the authorization server's RFC 7662 token introspection endpoint.",
  },
  AUTH_INTROSPECTION_CLIENT_ID: {
    shownDefault: 'empty',
    doc: 'For `introspect` (required): the client id this server authenticates to the introspection endpoint with (HTTP Basic, RFC 6749 2.3.1).',
  },
  AUTH_INTROSPECTION_CLIENT_SECRET: {
    shownDefault: 'unset',
    doc: 'Secret, for `introspect` (required): the client secret that goes with `AUTH_INTROSPECTION_CLIENT_ID`.',
  },
  AUTH_INTROSPECTION_CACHE_SECONDS: {
    doc: 'For `introspect`: how long an answer is kept per isolate (keyed by a SHA-256 hash of the token, never the token), at most until the token expires; `0`: ask every time. A revoked token is refused at most this long after.',
  },
  AUTH_INTROSPECTION_TIMEOUT_MS: {
    doc: 'For `introspect`: how long an introspection may take; past it, or when the endpoint fails, the request is answered 503 with `Retry-After`, never 401.',
  },
  AUTH_INTROSPECTION_AUD: {
    doc: 'For `introspect`: `required`: an answer must have an `aud` naming `AUTH_RESOURCE`; `optional`: for an authorization server that never sends `aud`, an answer without one is accepted (and the log says so each time); an `aud` that is there must still name `AUTH_RESOURCE`.',
  },
};
