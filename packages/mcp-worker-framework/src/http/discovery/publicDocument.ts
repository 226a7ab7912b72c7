/**
 * The documents the Worker serves to anyone before a client connects (the Server Card, the AI
 * Catalog, the page at `/`): each made once per isolate for each origin it is reached at, kept
 * with its entity tag, and answered 200 or 304 (RFC 9110 13.1.2) with the headers its kind gives.
 */
import { fnv1a } from '../../mcp/internal.js';

/** A document made once: its bytes and its entity tag. */
export interface PublicDocument {
  readonly body: string;
  readonly etag: string;
}

/** Documents by origin and kind; bounded, since the origin comes from the request's URL. */
const documents = new Map<string, PublicDocument>();
const MAX_DOCUMENTS = 32;

/** The document kept under `key`, made by `make` the first time it is asked for. */
export function publicDocument(key: string, make: () => string): PublicDocument {
  let document = documents.get(key);
  if (!document) {
    const body = make();
    document = { body, etag: `"${fnv1a(body)}-${body.length.toString(16)}"` };
    if (documents.size >= MAX_DOCUMENTS) documents.delete(documents.keys().next().value!);
    documents.set(key, document);
  }
  return document;
}

/** 200 with the document, or 304 when the client's `If-None-Match` names its tag. */
export function answerDocument(
  request: Request,
  document: PublicDocument,
  type: string,
  headers: Record<string, string>,
): Response {
  const all = { ...headers, ETag: document.etag };
  const tags = request.headers.get('If-None-Match');
  if (
    tags !== null &&
    (tags.trim() === '*' || tags.split(',').some((tag) => tag.trim().replace(/^W\//, '') === document.etag))
  ) {
    return new Response(null, { status: 304, headers: all });
  }
  return new Response(document.body, { headers: { ...all, 'Content-Type': type } });
}
