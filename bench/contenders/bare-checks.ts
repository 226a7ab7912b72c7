/**
 * Contender "bare + checks": "bare + parse" plus what the 2026-07-28 HTTP transport asks of
 * every request before any MCP work: a JSON media type, a body that is strict UTF-8, and the
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers equal to the body. Still no MCP:
 * it answers a fixed result with the request's id. The floor for a server that checks the wire.
 */
const RESULT = { resultType: 'complete', content: [{ type: 'text', text: 'hello' }] };
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const JSON_HEADERS = { 'content-type': 'application/json' };

const refuse = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), { status, headers: JSON_HEADERS });

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const { headers } = request;
    if (!headers.get('content-type')?.startsWith('application/json')) return refuse(415, -32600, 'unsupported media type');
    let message: { id?: unknown; method?: unknown; params?: { name?: unknown; _meta?: Record<string, unknown> } };
    try {
      message = JSON.parse(utf8.decode(await request.arrayBuffer()));
    } catch {
      return refuse(400, -32700, 'parse error');
    }
    const version = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
    const name = headers.get('mcp-name');
    if (headers.get('mcp-protocol-version') !== version || headers.get('mcp-method') !== message.method || (name !== null && name !== message.params?.name)) {
      return refuse(400, -32020, 'header mismatch');
    }
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, result: RESULT }), { headers: JSON_HEADERS });
  },
};
