/**
 * How the server is found before a client connects (spec extensions/server-card, SEP-2127,
 * experimental; docs/discovery.md): its Server Card at `GET /mcp/server-card`, the recommended
 * location, and an AI Catalog at `GET /.well-known/ai-catalog.json` that points at it. Both are
 * public metadata: readable from any origin without credentials (discovery.md, CORS
 * Requirements), `Cache-Control: public`, and an `ETag` a client revalidates with `If-None-Match`.
 * Each is made from the same compiled definition as `server/discover` (name, version, title,
 * the versions served), once per isolate for each origin the Worker is reached at.
 */
import type { CompiledServer } from '../../mcp/internal.js';
import type { HttpContext } from '../context.js';
import { answerDocument, publicDocument, type PublicDocument } from './publicDocument.js';
import { originOf } from '../transport/url.js';

export const SERVER_CARD_PATH = '/mcp/server-card';
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
const CARD_TYPE = 'application/mcp-server-card+json';
const CATALOG_TYPE = 'application/ai-catalog+json';
const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** discovery.md, CORS Requirements: any origin may read them; no credentials are involved. */
const PUBLIC_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET',
  'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
  'Access-Control-Expose-Headers': 'ETag',
};

/** True for the public documents, which any page may read (the Origin allowlist guards `/mcp` only). */
export const isPublicDocument = (path: string) => path === SERVER_CARD_PATH || path === AI_CATALOG_PATH;

/** The Server Card: identity, the remote endpoint and the versions it speaks. */
export function serverCard(context: HttpContext): Response | undefined {
  const card = context.server.compiled.card;
  if (!card) return undefined;
  const origin = originOf(context.url);
  const servesLegacy = context.settings.legacyClients;
  const document = publicDocument(`card ${servesLegacy} ${origin}`, () =>
    JSON.stringify(cardOf(context.server, origin, servesLegacy)),
  );
  // discovery.md: the card's media type, or plain JSON to a client that asks only for that.
  const accept = context.request.headers.get('Accept') ?? '';
  const type = accept.includes('application/json') && !accept.includes(CARD_TYPE) ? 'application/json' : CARD_TYPE;
  return answer(context, document, type);
}

/** The AI Catalog: one entry, pointing at this server's card (discovery.md, Example: Single Server). */
export function aiCatalog(context: HttpContext): Response | undefined {
  const card = context.server.compiled.card;
  if (!card || !context.settings.aiCatalog) return undefined;
  const origin = originOf(context.url);
  const document = publicDocument(`catalog ${origin}`, () =>
    JSON.stringify({
      specVersion: '1.0',
      entries: [{ identifier: identifierOf(card.name, origin), type: CARD_TYPE, url: `${origin}${SERVER_CARD_PATH}` }],
    }),
  );
  return answer(context, document, CATALOG_TYPE);
}

/** `OPTIONS` of a public document. */
export const publicPreflight = () =>
  new Response(null, { status: 204, headers: { ...PUBLIC_CORS, 'Access-Control-Max-Age': '86400' } });

const answer = (context: HttpContext, document: PublicDocument, type: string) =>
  answerDocument(context.request, document, type, {
    ...PUBLIC_CORS,
    'Cache-Control': 'public, max-age=3600',
    Vary: 'Accept',
  });

function cardOf(server: CompiledServer, origin: string, servesLegacy: boolean): object {
  const { info, card } = server.compiled;
  return {
    $schema: CARD_SCHEMA,
    name: card!.name,
    version: info.version,
    description: card!.description,
    ...(info.title ? { title: info.title } : {}),
    ...(card!.websiteUrl ? { websiteUrl: card!.websiteUrl } : {}),
    ...(card!.repository ? { repository: card!.repository } : {}),
    ...(card!.icons ? { icons: card!.icons } : {}),
    remotes: [
      { type: 'streamable-http', url: `${origin}/mcp`, supportedProtocolVersions: server.servedVersions(servesLegacy) },
    ],
  };
}

/** discovery.md: `urn:air:{publisher}:{namespace}:{name}`, the publisher being the host the catalog is served from. */
function identifierOf(name: string, origin: string): string {
  const host = new URL(origin).hostname;
  return `urn:air:${host}:mcp:${name.slice(name.indexOf('/') + 1)}`;
}
