/** Streamable HTTP binding rules, against the defaults fixture in workerd. */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { defaultsUrl, fixtureUrl, mcpHeaders, meta, replyOf, requestsTo } from '../support/mcp';

const { post, rpc } = requestsTo(defaultsUrl());

const raw = (body: string, headers: Record<string, string> = mcpHeaders('server/discover'), url = defaultsUrl()) =>
  fetch(url, { method: 'POST', headers, body });

describe('routing', () => {
  it('answers GET and DELETE on /mcp with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(defaultsUrl(), { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('Allow')).toBe('POST');
    }
  });

  it('ignores Mcp-Session-Id and Last-Event-ID and never mints a session', async () => {
    const response = await post('server/discover', { headers: { 'Mcp-Session-Id': 'abc', 'Last-Event-ID': '7' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Mcp-Session-Id')).toBeNull();
  });
});

describe('request body', () => {
  it('refuses a non-JSON Content-Type with 415', async () => {
    const response = await raw('{}', { ...mcpHeaders('server/discover'), 'Content-Type': 'text/plain' });
    expect(response.status).toBe(415);
    expect((await replyOf(response)).error?.code).toBe(-32600);
  });

  it('accepts application/json with a charset parameter', async () => {
    const response = await post('server/discover', { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(response.status).toBe(200);
  });

  it('refuses a body over the configured limit with 413', async () => {
    const response = await raw(JSON.stringify({ pad: 'x'.repeat(2048) }), mcpHeaders('server/discover'), fixtureUrl());
    expect(response.status).toBe(413);
    expect((await replyOf(response)).error?.code).toBe(-32600);
  });

  it('refuses a chunked body over the limit with 413', async () => {
    // node:http, not fetch: the four chunks go to the socket in one tick, so the Worker's early
    // 413 (it stops reading at the limit) cannot race a write still pending (EPIPE under load).
    const status = await new Promise<number>((resolve, reject) => {
      const post = httpRequest(fixtureUrl(), { method: 'POST', headers: mcpHeaders('server/discover') }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      post.on('error', reject);
      for (let i = 0; i < 4; i++) post.write('x'.repeat(512));
      post.end();
    });
    expect(status).toBe(413);
  });

  // A batch, a null id and a posted response: test/spec/transport.test.ts and messages.test.ts.
  const notSingleRequests: [string, unknown][] = [
    ['a string', 'hello'],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'server/discover' }],
    ['an object id', { jsonrpc: '2.0', id: {}, method: 'server/discover' }],
    ['an array id', { jsonrpc: '2.0', id: [1], method: 'server/discover' }],
    ['a boolean id', { jsonrpc: '2.0', id: true, method: 'server/discover' }],
    ['a numeric method', { jsonrpc: '2.0', id: 1, method: 7 }],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'server/discover', params: [] }],
  ];
  it.each(notSingleRequests)('answers %s with 400 and -32600', async (_, body) => {
    const response = await raw(JSON.stringify(body));
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error?.code).toBe(-32600);
  });

  it('refuses deeply nested JSON without crashing, then keeps serving', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const response = await raw(deep);
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error?.code).toBe(-32600);
    expect((await post('server/discover')).status).toBe(200);
  });

  it('answers a notification with 202 and an empty body', async () => {
    const response = await raw(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized', params: { _meta: meta() } }),
      mcpHeaders('notifications/initialized'),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('refuses a body that names a member twice with 400 and -32700, though its headers agree with the last name', async () => {
    // A gateway that keeps the first name sees the tool "sum"; JSON.parse keeps the last, "echo".
    const params = `"name":"sum","arguments":{"a":1,"b":2},"_meta":${JSON.stringify(meta())}`;
    for (const [body, headers] of [
      [
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{${params},"name":"echo"}}`,
        mcpHeaders('tools/call', 'echo'),
      ],
      [
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{${params.replace('"b":2', '"b":2,"a":5')}}}`,
        mcpHeaders('tools/call', 'sum'),
      ],
      [
        `{"jsonrpc":"2.0","id":1,"method":"server/discover","id":2,"params":{"_meta":${JSON.stringify(meta())}}}`,
        mcpHeaders('server/discover'),
      ],
    ] as const) {
      const response = await raw(body, headers);
      expect(response.status, body).toBe(400);
      expect(await replyOf(response), body).toMatchObject({ id: null, error: { code: -32700 } });
    }
    expect((await rpc('tools/call', { params: { name: 'sum', arguments: { a: 1, b: 2 } } })).status).toBe(200);
  });

  it('does not let a __proto__ key pollute anything', async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sum","arguments":{"a":1,"b":2,"__proto__":{"polluted":true}},"_meta":${JSON.stringify(meta())}}}`;
    const response = await raw(body, mcpHeaders('tools/call', 'sum'));
    const reply = await replyOf(response);
    // additionalProperties: false sees "__proto__" as the own key it is
    expect(reply.result?.isError).toBe(true);
    expect(
      (await rpc('tools/call', { params: { name: 'sum', arguments: { a: 1, b: 2 } } })).body.result?.structuredContent,
    ).toEqual({ sum: 3 });
  });
});

describe('Origin and CORS', () => {
  it('refuses a request from an origin not in the allowlist with 403', async () => {
    const response = await post('server/discover', { headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect((await replyOf(response)).error).toMatchObject({ code: -32600 });
  });

  it('serves local dev origins out of the box and lets them read the answer', async () => {
    const response = await post('server/discover', { headers: { Origin: 'http://localhost:6274' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:6274');
  });

  it('refuses a DNS-rebinding request whose Host and Origin both name the attacker', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(defaultsUrl());
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } });
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { ...mcpHeaders('server/discover'), Host: 'evil.example.com', Origin: 'http://evil.example.com' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });

  it('matches exact and wildcard-subdomain origins from the config', async () => {
    const url = fixtureUrl();
    expect((await post('server/discover', { url, headers: { Origin: 'https://app.example.com' } })).status).toBe(200);
    expect((await post('server/discover', { url, headers: { Origin: 'https://eu.tenant.example.org' } })).status).toBe(
      200,
    );
    expect((await post('server/discover', { url, headers: { Origin: 'https://example.org.evil.net' } })).status).toBe(
      403,
    );
    expect((await post('server/discover', { url, headers: { Origin: 'http://localhost:6274' } })).status).toBe(403);
  });

  it('answers a preflight from an allowed origin with the MCP headers allowed and a max age', async () => {
    const response = await fetch(defaultsUrl(), {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:6274',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers':
          'content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region, authorization, traceparent, x-evil',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:6274');
    expect(response.headers.get('Access-Control-Allow-Methods')).toContain('POST');
    const allowed = response.headers.get('Access-Control-Allow-Headers')?.split(', ');
    expect(allowed).toEqual([
      'content-type',
      'mcp-protocol-version',
      'mcp-method',
      'mcp-name',
      'mcp-param-region',
      'authorization',
      'traceparent',
    ]);
    expect(response.headers.get('Access-Control-Expose-Headers')).toContain('MCP-Protocol-Version');
    expect(Number(response.headers.get('Access-Control-Max-Age'))).toBeGreaterThan(0);
  });

  it('refuses a preflight from a disallowed origin with 403', async () => {
    const response = await fetch(defaultsUrl(), {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});
