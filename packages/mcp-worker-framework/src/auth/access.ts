/**
 * AUTH_MODE = "access": Cloudflare Access sits in front and signs each request it lets through
 * (`Cf-Access-Jwt-Assertion`); the Worker verifies that token against the team's certs
 * (`../http/access.ts`, jose; docs/access.md). No metadata to advertise: clients sign in at
 * Access, not at an OAuth server.
 */
import { verifyAccess, type AccessAuthSettings } from './verifyAccess.js';
import { authMode } from '../http/auth/auth.js';
import {
  listOf,
  matching,
  required,
  SHARED_AUTH_SETTINGS,
  teamDomain,
  type SettingDocs,
  type SettingRows,
} from '../http/settings/settingsTable.js';

const settings = {
  ACCESS_TEAM_DOMAIN: {
    default: undefined,
    accepts: 'a team domain such as `acme.cloudflareaccess.com` or `https://acme.cloudflareaccess.com`',
    parse: teamDomain,
  },
  ACCESS_AUD: {
    default: [] as readonly string[],
    accepts: 'the Application Audience (AUD) tag of the Access application, or several',
    parse: listOf((item) => /^[A-Za-z0-9_-]{8,256}$/.test(item), 'an AUD tag'),
  },
  ACCESS_SCOPES_CLAIM: {
    default: undefined,
    accepts: 'the name of one claim, e.g. `groups`',
    parse: matching(/^[A-Za-z0-9_.:-]{1,64}$/),
  },
  AUTH_JWKS_TIMEOUT_MS: SHARED_AUTH_SETTINGS.AUTH_JWKS_TIMEOUT_MS,
} satisfies SettingRows;

export const access = authMode<AccessAuthSettings, typeof settings>({
  name: 'access',
  settings,
  parse(values) {
    const team = values.ACCESS_TEAM_DOMAIN;
    if (!team)
      return required('ACCESS_TEAM_DOMAIN', 'access', ': your Zero Trust team domain, e.g. acme.cloudflareaccess.com');
    if (values.ACCESS_AUD.length === 0)
      return required('ACCESS_AUD', 'access', ': the Application Audience (AUD) tag of the Access application');
    return {
      mode: 'access',
      issuer: team,
      certsUrl: `${team}/cdn-cgi/access/certs`,
      certsTimeoutMs: values.AUTH_JWKS_TIMEOUT_MS,
      audiences: values.ACCESS_AUD,
      scopesClaim: values.ACCESS_SCOPES_CLAIM,
      scopesSupported: values.AUTH_SCOPES,
      authorizationServers: [],
    };
  },
  // The token Access adds to each request it lets through; none: the request did not come through Access.
  header: 'Cf-Access-Jwt-Assertion',
  verify: (assertion, auth, _env, lifetime) => verifyAccess(assertion, auth, lifetime),
  connect: {
    signIn: () =>
      'Sign-in with Cloudflare Access: your organisation’s sign-in, in the browser; programs connect with an Access service token, in the headers below.',
    headers: { 'CF-Access-Client-Id': '<client id>', 'CF-Access-Client-Secret': '<client secret>' },
  },
});

/** The README's line of each of its own settings (`npm run settings`; not in the Worker's bundle). */
export const docs: SettingDocs<typeof settings> = {
  ACCESS_TEAM_DOMAIN: {
    shownDefault: 'empty',
    doc: 'For `access` (required): your Zero Trust team domain; Access tokens carry it as `iss`, and its signing keys are at `<team domain>/cdn-cgi/access/certs` ([docs/access.md](docs/access.md)).',
  },
  ACCESS_AUD: {
    shownDefault: 'empty',
    doc: 'For `access` (required): the Application Audience (AUD) tag of the Access application in front of the Worker (several, when more than one application routes to it); tokens for any other application are refused.',
  },
  ACCESS_SCOPES_CLAIM: {
    shownDefault: 'unset: no scopes',
    doc: "For `access`: a claim of the Access token whose values become the caller's scopes (a list, or a space-separated string), e.g. `groups` when your identity provider passes them.",
  },
};
