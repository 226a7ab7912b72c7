/**
 * Contender "bare + parse": the practical limit for any JSON-RPC server. It reads the body,
 * parses it, and answers a fixed result carrying the request's id: no MCP at all.
 */
const RESULT = { resultType: 'complete', content: [{ type: 'text', text: 'hello' }] };

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const message: unknown = JSON.parse(await request.text());
    const id = typeof message === 'object' && message !== null && 'id' in message ? message.id : null;
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: RESULT }), {
      headers: { 'content-type': 'application/json' },
    });
  },
};
