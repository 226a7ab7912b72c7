/** Contender "bare": the physical limit, a Worker that reads the body and returns a fixed JSON-RPC result. */
const BODY = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"hello"}]}}';

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    await request.arrayBuffer();
    return new Response(BODY, { headers: { 'content-type': 'application/json' } });
  },
};
