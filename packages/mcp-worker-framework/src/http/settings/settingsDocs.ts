/**
 * What the README's settings table says of each core setting of `./settingsTable.ts` and of the
 * rows the auth modes share (each mode's own are in its module, as `docs`): what it does, and,
 * where its default needs words, how to show it. Only `scripts/settings.mjs` reads this, so the
 * prose stays out of the Worker's bundle; the type makes a setting without its line fail tsc.
 */
import type { SettingDoc, SettingName } from './settingsTable.js';

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
    doc: "The endpoint's public URL, e.g. `https://<name>.<account>.workers.dev/mcp`: the remote `npm run registry` writes into `server.json` when no `--url` is given ([docs/discovery.md](docs/discovery.md)). The Worker itself only checks it.",
  },
  MCP_REGISTRY_AUTH: {
    shownDefault: 'unset',
    doc: "Served at `/.well-known/mcp-registry-auth`, for the MCP Registry to check that a name in this Worker's domain is yours (`mcp-publisher login http`; [docs/discovery.md](docs/discovery.md)). A public key, not a secret.",
  },
  AUTH_MODE: {
    shownDefault: 'unset: the one mode `auth` lists (none listed: `none`)',
    doc: '`none`; `bearer`: the one secret `MCP_BEARER_TOKEN`; `jwt`: OAuth access tokens from `AUTH_ISSUER` for `AUTH_RESOURCE`; `access`: Cloudflare Access in front (`ACCESS_TEAM_DOMAIN`, `ACCESS_AUD`, [docs/access.md](docs/access.md)); `introspect`: opaque tokens checked at `AUTH_INTROSPECTION_URL` (RFC 7662) ([docs/production.md](docs/production.md)); `signin`: the Worker is its own authorization server and signs users in with `LOGIN_PROVIDER`, once `src/index.ts` lists `signIn()` ([docs/sign-in.md](docs/sign-in.md)). Decided by `auth` in `src/index.ts`: unset, the one mode it lists is served (none listed: none); with several listed it must name one of them, or `none`. Any other value is refused, naming the values it accepts and, in the log and `npm run check`, the line to add.',
  },
  AUTH_ISSUER: {
    shownDefault: 'empty',
    doc: 'For `jwt` (required): the `iss` every token carries.',
  },
  AUTH_RESOURCE: {
    shownDefault: 'empty',
    doc: "For `jwt`, `introspect` and `signin` (required): this server's resource identifier, the `aud` tokens must name and the `resource` of its RFC 9728 metadata, e.g. `https://mcp.example.com/mcp`; with `signin` its origin is also the issuer. Never taken from the request.",
  },
  AUTH_JWKS_TIMEOUT_MS: {
    doc: "For `jwt` and `access`: how long a fetch of the issuer's keys (Access: the team's certs) may take; past it, a request whose keys are not cached is answered 503 with `Retry-After` ([docs/reliability.md](docs/reliability.md)).",
  },
  AUTH_SERVERS: {
    shownDefault: 'the issuer',
    doc: 'For `jwt` and `introspect`: the authorization servers the metadata advertises (`introspect`: `AUTH_ISSUER` when unset; with neither, no metadata is served).',
  },
  AUTH_SCOPES: {
    shownDefault: 'empty',
    doc: 'The scopes the metadata advertises, and the 401 challenge asks for.',
  },
  MCP_STATE_SECRET: {
    shownDefault: 'a random key per isolate (logged as a warning)',
    doc: 'Secret: seals what a tool carries between the rounds of a request that asks the user something; set it so every isolate opens what another sealed. Task tools need it: task ids are signed with it; `signin` needs it: remembered consent is signed with a key derived from it.',
  },
} satisfies Record<SettingName, SettingDoc>;
