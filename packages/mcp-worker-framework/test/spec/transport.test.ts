/** spec 2026-07-28 basic/transports/streamable-http (and basic/transports/index). */
import { describe, expect, inject, it } from 'vitest';
import { mcpHeaders, meta, replyOf, requestsTo, sseMessages, VERSION } from '../support/mcp';
import { expectErrorSchema, expectSchema } from './expectSchema';

const specUrl = inject('specUrl');
const { post, raw, rpc } = requestsTo(specUrl);

describe('streamable-http: the endpoint', () => {
  it('streamable-http: "MUST provide a single HTTP endpoint path" that supports POST; other paths are 404', async () => {
    expect((await post('server/discover')).status).toBe(200);
    const elsewhere = await fetch(new URL('/other', specUrl), {
      method: 'POST',
      headers: mcpHeaders('server/discover'),
      body: '{}',
    });
    expect(elsewhere.status).toBe(404);
  });

  it('streamable-http: "If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden"', async () => {
    const refused = await post('server/discover', { headers: { Origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    const allowed = await post('server/discover', { headers: { Origin: 'https://app.example.com' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('Access-Control-Allow-Origin')).toBe('https://app.example.com');
  });

  it('streamable-http: "The body of the HTTP POST MUST be a single JSON-RPC request or notification": a batch is refused with -32600', async () => {
    const body = JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } }]);
    const response = await raw(body, mcpHeaders('server/discover'));
    expect(response.status).toBe(400);
    const reply = await replyOf(response);
    expect(reply.error?.code).toBe(-32600);
    expectErrorSchema(reply, 'InvalidRequestError');
  });

  it('streamable-http: "The client MUST NOT send JSON-RPC responses": a posted response is refused with 400', async () => {
    const response = await raw(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }), mcpHeaders('server/discover'));
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error?.code).toBe(-32600);
  });

  it('streamable-http: "If the server accepts it, the server MUST return HTTP status code 202 Accepted with no body"', async () => {
    const response = await raw(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x' } }),
      mcpHeaders('notifications/cancelled'),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('streamable-http: "If the server cannot accept it, it MUST return an HTTP error status code": a malformed notification is 400', async () => {
    const response = await raw(
      '{"jsonrpc":"1.0","method":"notifications/cancelled"}',
      mcpHeaders('notifications/cancelled'),
    );
    expect(response.status).toBe(400);
  });

  it('streamable-http: "the server MUST return either Content-Type: application/json or Content-Type: text/event-stream"', async () => {
    const plain = await post('tools/call', { params: { name: 'echo', arguments: { text: 'x' } } });
    expect(plain.headers.get('Content-Type')).toBe('application/json');
    const streamed = await post('tools/call', {
      params: { name: 'steps', arguments: { count: 2 }, _meta: meta({ progressToken: 'p' }) },
    });
    expect(streamed.headers.get('Content-Type')).toBe('text/event-stream');
    await streamed.body?.cancel();
  });

  it('streamable-http: "These notifications MUST relate to the originating client request" and "The final JSON-RPC response SHOULD terminate the stream"', async () => {
    const response = await post('tools/call', {
      id: 'streamed',
      params: {
        name: 'steps',
        arguments: { count: 3 },
        _meta: meta({ progressToken: 'tok', 'io.modelcontextprotocol/logLevel': 'info' }),
      },
    });
    const messages = await sseMessages(response);
    const last = messages.at(-1);
    expect(last?.id).toBe('streamed');
    expectSchema(last, 'CallToolResultResponse');
    for (const message of messages.slice(0, -1)) {
      expect(message.id).toBeUndefined();
      if (message.method === 'notifications/progress') {
        expect(message.params?.progressToken).toBe('tok');
        expectSchema(message, 'ProgressNotification');
      } else {
        expect(message.method).toBe('notifications/message');
        expectSchema(message, 'LoggingMessageNotification');
      }
    }
  });

  it('streamable-http: "The server MUST NOT send independent JSON-RPC requests on this stream": no message with a method and an id', async () => {
    const response = await post('tools/call', {
      params: { name: 'steps', arguments: { count: 2 }, _meta: meta({ progressToken: 1 }) },
    });
    for (const message of await sseMessages(response))
      expect(message.method !== undefined && message.id !== undefined).toBe(false);
  });

  it('streamable-http: "servers SHOULD include the X-Accel-Buffering: no header" on an SSE stream', async () => {
    const response = await post('tools/call', {
      params: { name: 'steps', arguments: { count: 1 }, _meta: meta({ progressToken: 1 }) },
    });
    expect(response.headers.get('X-Accel-Buffering')).toBe('no');
    await response.body?.cancel();
  });

  it('streamable-http: GET or DELETE to the MCP endpoint: "respond with 405 Method Not Allowed"', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(specUrl, { method, headers: { 'MCP-Protocol-Version': VERSION } });
      expect(response.status, method).toBe(405);
    }
  });

  it('basic/transports: "JSON-RPC messages MUST be UTF-8 encoded": a body that is not UTF-8 is a parse error', async () => {
    const response = await fetch(specUrl, {
      method: 'POST',
      headers: mcpHeaders('server/discover'),
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error?.code).toBe(-32700);
  });
});

describe('streamable-http: request metadata headers', () => {
  it('streamable-http: "If the values do not match, the server MUST reject the request with 400 Bad Request and a HeaderMismatch"', async () => {
    const { status, body } = await rpc('tools/list', { headers: { 'MCP-Protocol-Version': '2099-01-01' } });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32020);
    expectErrorSchema(body, 'HeaderMismatchError');
  });

  it('streamable-http: "MUST respond with 400 Bad Request and an UnsupportedProtocolVersionError" when header and body agree on an unknown version', async () => {
    const { status, body } = await rpc('server/discover', {
      params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      headers: { 'MCP-Protocol-Version': '2099-01-01' },
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: -32022,
      data: { requested: '2099-01-01', supported: expect.arrayContaining([VERSION]) },
    });
  });

  it('streamable-http: "it MUST respond with 404 Not Found and a JSON-RPC error with code -32601"', async () => {
    const { status, body } = await rpc('tools/unknown');
    expect(status).toBe(404);
    expect(body.error?.code).toBe(-32601);
    expectErrorSchema(body, 'MethodNotFoundError');
  });

  it('streamable-http: "These headers are REQUIRED": a modern request without Mcp-Method or with a wrong Mcp-Name is -32020', async () => {
    const noMethod = await rpc('tools/list', { headers: { 'Mcp-Method': '' } });
    expect(noMethod.body.error?.code).toBe(-32020);
    const withoutHeader = await fetch(specUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'MCP-Protocol-Version': VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }),
    });
    expect(withoutHeader.status).toBe(400);
    expect((await replyOf(withoutHeader)).error?.code).toBe(-32020);
    const wrongName = await rpc('tools/call', {
      params: { name: 'echo', arguments: { text: 'x' } },
      headers: { 'Mcp-Name': 'sum' },
    });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.error?.code).toBe(-32020);
  });

  it('streamable-http: "A server that does not support such clients MUST reject a request without the header": no version header with a modern body is -32020', async () => {
    const response = await fetch(specUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Mcp-Method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }),
    });
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error?.code).toBe(-32020);
  });

  it('streamable-http: "servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing it"', async () => {
    const encoded = (value: string) => `=?base64?${btoa(value)}?=`;
    const { body } = await rpc('tools/call', {
      params: { name: 'region', arguments: { region: 'é-north' } },
      headers: {
        'Mcp-Name': encoded('region'),
        'Mcp-Param-Region': encoded(String.fromCharCode(...new TextEncoder().encode('é-north'))),
      },
    });
    expect(body.result?.content[0].text).toBe('in é-north');
  });

  it('streamable-http: "Servers MUST reject requests with a recognized Mcp-Param-{Name} header that contains invalid characters"', async () => {
    // Not ASCII, so a client must have Base64-encoded it; sent plain, it is refused even though it equals the body.
    const { status, body } = await rpc('tools/call', {
      params: { name: 'region', arguments: { region: 'caf\u00e9' } },
      headers: { 'Mcp-Param-Region': 'caf\u00e9' },
    });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32020);
  });

  it('streamable-http: "Servers that process the request body MUST reject requests where the values specified in the headers do not match"', async () => {
    const missing = await rpc('tools/call', { params: { name: 'region', arguments: { region: 'eu' } } });
    expect(missing.body.error?.code).toBe(-32020);
    const wrong = await rpc('tools/call', {
      params: { name: 'region', arguments: { region: 'eu' } },
      headers: { 'Mcp-Param-Region': 'us' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.code).toBe(-32020);
    const right = await rpc('tools/call', {
      params: { name: 'region', arguments: { region: 'eu' } },
      headers: { 'Mcp-Param-Region': 'eu' },
    });
    expect(right.body.result?.content[0].text).toBe('in eu');
  });

  it('streamable-http: "servers SHOULD compare the header value and the body value numerically" (42.0 equals 42)', async () => {
    const { body } = await rpc('tools/call', {
      params: { name: 'region', arguments: { region: 'eu', shard: 42 } },
      headers: { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Shard': '42.0' },
    });
    expect(body.result?.content[0].text).toBe('in eu');
  });

  it('streamable-http: "Clients and servers MUST use case-insensitive comparisons for header names"', async () => {
    const headers = {
      'mcp-param-region': 'eu',
      'mcp-method': 'tools/call',
      'mcp-protocol-version': VERSION,
      'mcp-name': 'region',
    };
    const body = await replyOf(
      await raw(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { _meta: meta(), name: 'region', arguments: { region: 'eu' } },
        }),
        headers,
      ),
    );
    expect(body.result?.content[0].text).toBe('in eu');
  });
});
