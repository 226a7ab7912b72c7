/**
 * Contender "bare + checks": "bare + parse" plus what the 2026-07-28 HTTP transport asks of
 * every request before any MCP work: a JSON media type, a body that is strict UTF-8, and the
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers equal to the body. Still no MCP:
 * it answers a fixed result with the request's id. The floor for a server that checks the wire.
 * "bare + pipeline" makes the same checks with the same functions.
 */
const RESULT = { resultType: 'complete', content: [{ type: 'text', text: 'hello' }] };
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const JSON_HEADERS = { 'content-type': 'application/json' };

export interface Message {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; _meta?: Record<string, unknown> };
}

export const refuse = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), {
    status,
    headers: JSON_HEADERS,
  });

/** 415 unless the body is JSON. */
export const refuseMediaType = (headers: Headers): Response | undefined =>
  headers.get('content-type')?.startsWith('application/json')
    ? undefined
    : refuse(415, -32600, 'unsupported media type');

/** The body as a message, or -32700 when it is not strict UTF-8 JSON. */
export function parseBody(bytes: ArrayBuffer): Message | Response {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    return refuse(400, -32700, 'parse error');
  }
}

/** -32020 unless the routing headers say what the body says. */
export function refuseMismatch(headers: Headers, message: Message): Response | undefined {
  const version = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  const name = headers.get('mcp-name');
  const agree =
    headers.get('mcp-protocol-version') === version &&
    headers.get('mcp-method') === message.method &&
    (name === null || name === message.params?.name);
  return agree ? undefined : refuse(400, -32020, 'header mismatch');
}

/** The fixed result, with the request's id. */
export const answer = (message: Message) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, result: RESULT }), { headers: JSON_HEADERS });

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const { headers } = request;
    const refused = refuseMediaType(headers);
    if (refused) return refused;
    const message = parseBody(await request.arrayBuffer());
    if (message instanceof Response) return message;
    return refuseMismatch(headers, message) ?? answer(message);
  },
};
