/**
 * What the README's settings table says of each setting of `./settingsTable.ts`: what it does,
 * and, where its default needs words, how to show it. Only `scripts/settings.mjs` reads this, so
 * the prose stays out of the Worker's bundle; the type makes a setting without its line fail tsc.
 *
 * This module imports types only, so the scripts run it as it is (Node strips its types).
 */
import type { SettingName } from './settingsTable';

export interface SettingDoc {
  /** What it does. */
  doc: string;
  /** Shown in the Default column instead of the default value. */
  shownDefault?: string;
}

export const SETTING_DOCS = {
  ALLOWED_ORIGINS: {
    shownDefault: 'empty: none (`wrangler.toml`: `http://localhost:*, http://127.0.0.1:*`)',
    doc: 'Browser origins allowed to call `/mcp` (403 otherwise). `https://*.example.com`: any subdomain; `http://localhost:*`: any port; `*` alone: any origin. Requests without `Origin` (non-browser clients) always pass.',
  },
  ALLOWED_HOSTS: {
    shownDefault: 'empty: any',
    doc: '`Host` names the endpoint answers to, e.g. `localhost:*, 127.0.0.1:*` to guard a local server against DNS rebinding.',
  },
  LEGACY_CLIENTS: {
    doc: 'Also serve clients that open with `initialize` (protocol 2025-11-25 and earlier); `off` serves 2026-07-28 only.',
  },
  MAX_BODY_BYTES: {
    shownDefault: '`4194304` (4 MiB)',
    doc: 'Largest request body (413 above).',
  },
  LISTEN_MAX_SECONDS: {
    doc: 'How long a `subscriptions/listen` stream stays open before the server ends it.',
  },
  LISTEN_MAX_STREAMS: {
    doc: 'How many `subscriptions/listen` streams one isolate keeps open at once; one client (its principal, else its address) holds at most a quarter of them.',
  },
  REQUEST_LOGS: {
    doc: 'One JSON log line per request answered with an error or a refusal (`on`: every request; `off`: none), when its answer has ended (status, JSON-RPC error code, duration, method, tool, client, trace), never tokens or arguments ([docs/observability.md](docs/observability.md)).',
  },
  AI_CATALOG: {
    doc: 'Serve `/.well-known/ai-catalog.json`, an AI Catalog pointing at the Server Card (`/mcp/server-card`); `off` on a domain the Worker shares and whose well-known path it does not own ([docs/discovery.md](docs/discovery.md)).',
  },
  PUBLIC_URL: {
    shownDefault: 'unset',
    doc: 'The endpoint\'s public URL, e.g. `https://<name>.<account>.workers.dev/mcp`: the remote `npm run registry` writes into `server.json` when no `--url` is given ([docs/discovery.md](docs/discovery.md)). The Worker itself only checks it.',
  },
  MCP_REGISTRY_AUTH: {
    shownDefault: 'unset',
    doc: 'Served at `/.well-known/mcp-registry-auth`, for the MCP Registry to check that a name in this Worker\'s domain is yours (`mcp-publisher login http`; [docs/discovery.md](docs/discovery.md)). A public key, not a secret.',
  },
  AUTH_MODE: {
    doc: '`none`; `bearer`: the one secret `MCP_BEARER_TOKEN`; `jwt`: OAuth access tokens from `AUTH_ISSUER` for `AUTH_RESOURCE`; `access`: Cloudflare Access in front (`ACCESS_TEAM_DOMAIN`, `ACCESS_AUD`, [docs/access.md](docs/access.md)); `introspect`: opaque tokens checked at `AUTH_INTROSPECTION_URL` (RFC 7662) ([docs/production.md](docs/production.md)); `signin`: the Worker is its own authorization server and signs users in with `LOGIN_PROVIDER`, once `src/index.ts` lists `signIn()` ([docs/sign-in.md](docs/sign-in.md)). A mode `src/index.ts` does not list in `auth` is refused, naming the line to add.',
  },
  AUTH_ISSUER: {
    shownDefault: 'empty',
    doc: 'For `jwt` (required): the `iss` every token carries.',
  },
  AUTH_RESOURCE: {
    shownDefault: 'empty',
    doc: 'For `jwt`, `introspect` and `signin` (required): this server\'s resource identifier, the `aud` tokens must name and the `resource` of its RFC 9728 metadata, e.g. `https://mcp.example.com/mcp`; with `signin` its origin is also the issuer. Never taken from the request.',
  },
  AUTH_JWKS_URL: {
    shownDefault: '`<issuer>/.well-known/jwks.json`',
    doc: 'For `jwt`: where the issuer\'s signing keys are.',
  },
  AUTH_JWKS_TIMEOUT_MS: {
    doc: 'For `jwt` and `access`: how long a fetch of the issuer\'s keys (Access: the team\'s certs) may take; past it, a request whose keys are not cached is answered 503 with `Retry-After` ([docs/reliability.md](docs/reliability.md)).',
  },
  AUTH_SERVERS: {
    shownDefault: 'the issuer',
    doc: 'For `jwt` and `introspect`: the authorization servers the metadata advertises (`introspect`: `AUTH_ISSUER` when unset; with neither, no metadata is served).',
  },
  AUTH_SCOPES: {
    shownDefault: 'empty',
    doc: 'The scopes the metadata advertises, and the 401 challenge asks for.',
  },
  AUTH_INTROSPECTION_URL: {
    shownDefault: 'empty',
    doc: 'For `introspect` (required): the authorization server\'s RFC 7662 token introspection endpoint.',
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
    doc: 'For `access`: a claim of the Access token whose values become the caller\'s scopes (a list, or a space-separated string), e.g. `groups` when your identity provider passes them.',
  },
  LOGIN_PROVIDER: {
    shownDefault: 'empty',
    doc: 'For `signin` (required): the provider users sign in with, `github` (an OAuth app) or `oidc` (any OpenID Connect provider, by discovery) ([docs/sign-in.md](docs/sign-in.md)).',
  },
  LOGIN_ISSUER: {
    shownDefault: 'empty',
    doc: 'For `signin` with `oidc` (required): the provider\'s issuer, where `/.well-known/openid-configuration` is.',
  },
  LOGIN_CLIENT_ID: {
    shownDefault: 'empty',
    doc: 'For `signin` (required): the client ID of the app you registered with the provider.',
  },
  LOGIN_GITHUB_URL: {
    doc: 'For `signin` with `github`: where GitHub\'s sign-in pages are (GitHub Enterprise, or a test fixture).',
  },
  LOGIN_GITHUB_API_URL: {
    doc: 'For `signin` with `github`: GitHub\'s API, asked who signed in and used by tools that act as the user.',
  },
  LOGIN_CLIENT_SECRET: {
    shownDefault: 'unset',
    doc: 'Secret, for `signin` (required): the client secret of the app you registered with the provider.',
  },
  MCP_BEARER_TOKEN: {
    shownDefault: 'unset',
    doc: 'Secret, for `bearer` (required): the one token clients send.',
  },
  MCP_STATE_SECRET: {
    shownDefault: 'a random key per isolate (logged as a warning)',
    doc: 'Secret: seals what a tool carries between the rounds of a request that asks the user something; set it so every isolate opens what another sealed. Task tools need it: task ids are signed with it; `signin` needs it: remembered consent is signed with a key derived from it.',
  },
} satisfies Record<SettingName, SettingDoc>;
