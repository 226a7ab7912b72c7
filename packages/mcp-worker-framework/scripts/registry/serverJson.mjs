/**
 * `server.json` for the official MCP Registry, made from the Server Card the Worker serves (so
 * the two never disagree), and checked against the registry's own schema, vendored beside this
 * file (server.schema.json, version 2025-12-11; README.md there says where it comes from).
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

const schema = JSON.parse(readFileSync(new URL('server.schema.json', import.meta.url), 'utf8'));
// strict: false, since the schema is the registry's, not ours to tidy; formats on, as the registry checks `uri`.
const isServerJson = addFormats.default(new Ajv({ allErrors: true, strict: false })).compile(schema);

/**
 * The `server.json` of the server whose card is `card` (as `GET /mcp/server-card` answers it),
 * reached at `url`: a remote server, streamable HTTP (registry docs, server.json format: `remotes`).
 */
export function serverJsonOf(card, url, headers = {}) {
  const { name, title, description, version, websiteUrl, repository, icons } = card;
  return {
    $schema: SERVER_JSON_SCHEMA,
    name,
    ...(title ? { title } : {}),
    description,
    version,
    ...(websiteUrl ? { websiteUrl } : {}),
    ...(repository ? { repository } : {}),
    ...(icons ? { icons } : {}),
    remotes: [{ type: 'streamable-http', url, ...remoteHeaders(headers) }],
  };
}

/**
 * The headers a client must send (as the Worker's page says them, placeholders in `<…>`), as the
 * registry declares them: each a required secret input, its placeholders variables a client asks
 * its user for (server.json format: `remotes[].headers`, KeyValueInput with `variables`).
 */
function remoteHeaders(headers) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return {};
  return {
    headers: entries.map(([name, value]) => {
      const variables = {};
      const template = value.replace(/<([^<>]+)>/g, (_, words) => {
        const variable = words.trim().replace(/\W+/g, '_');
        variables[variable] = {
          description: `The ${words} this server's owner gives you`,
          isRequired: true,
          isSecret: true,
        };
        return `{${variable}}`;
      });
      return {
        name,
        description: `Sent with every request: ${value}`,
        isRequired: true,
        isSecret: true,
        value: template,
        ...(Object.keys(variables).length > 0 ? { variables } : {}),
      };
    }),
  };
}

/** Where a field of `server.json` comes from, for an error that says what to edit. */
const SOURCES = {
  '/name': '`card.name` in src/server.ts',
  '/title': '`info.title` in src/server.ts',
  '/description': '`card.description` in src/server.ts',
  '/version': '`version` in package.json',
  '/websiteUrl': '`card.websiteUrl` in src/server.ts',
  '/repository': '`card.repository` in src/server.ts',
  '/icons': '`card.icons` in src/server.ts',
  '/remotes': 'the endpoint URL (--url or PUBLIC_URL)',
};

/** Why `document` is no valid `server.json`, one sentence per place, or [] when it is one. */
export function problemsOf(document) {
  if (isServerJson(document)) return [];
  const problems = new Set();
  for (const { instancePath, message } of isServerJson.errors ?? []) {
    const field = instancePath || '/';
    const top = Object.keys(SOURCES).find((key) => field === key || field.startsWith(`${key}/`));
    problems.add(`${field} ${message}${top ? ` (from ${SOURCES[top]})` : ''}`);
  }
  return [...problems];
}
