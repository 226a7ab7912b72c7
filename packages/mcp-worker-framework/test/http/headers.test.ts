/** Header and body must agree (spec 2026-07-28 streamable-http, Server Validation): -32020 with 400. */
import { describe, expect, it } from 'vitest';
import { defaultsUrl, fixtureUrl, meta, replyOf, requestsTo } from '../support/mcp';

const { rpc } = requestsTo(defaultsUrl());

const b64 = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;

async function expectMismatch(
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string>,
  why: RegExp,
  url?: string,
) {
  const { status, body } = await rpc(method, { params, headers, url });
  expect(status).toBe(400);
  expect(body.error?.code).toBe(-32020);
  expect(body.error?.message).toMatch(why);
}

describe('standard headers', () => {
  it('requires MCP-Protocol-Version', async () => {
    const response = await fetch(fixtureUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Mcp-Method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } }),
    });
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error?.message).toMatch(/MCP-Protocol-Version header is required/);
  });

  it('requires MCP-Protocol-Version to equal the body version', async () => {
    await expectMismatch(
      'server/discover',
      {},
      { 'MCP-Protocol-Version': '2025-11-25' },
      /MCP-Protocol-Version header value '2025-11-25' does not match/,
    );
  });

  it('requires Mcp-Method and compares it case-sensitively', async () => {
    await expectMismatch(
      'tools/list',
      {},
      { 'Mcp-Method': 'Tools/List' },
      /Mcp-Method header value 'Tools\/List' does not match body value 'tools\/list'/,
    );
  });

  it('requires Mcp-Name on tools/call, prompts/get and resources/read', async () => {
    for (const [method, params] of [
      ['tools/call', { name: 'sum', arguments: { a: 1, b: 2 } }],
      ['prompts/get', { name: 'p' }],
      ['resources/read', { uri: 'test://x' }],
    ] as const) {
      const response = await fetch(fixtureUrl(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta() } }),
      });
      expect(response.status).toBe(400);
      expect((await replyOf(response)).error).toMatchObject({
        code: -32020,
        message: expect.stringMatching(/Mcp-Name header is required/),
      });
    }
  });

  it('rejects an Mcp-Name that differs from params.name', async () => {
    await expectMismatch(
      'tools/call',
      { name: 'sum', arguments: { a: 1, b: 2 } },
      { 'Mcp-Name': 'subtract' },
      /Mcp-Name header value 'subtract' does not match body value 'sum'/,
    );
  });

  it('decodes a Base64 Mcp-Name before comparing', async () => {
    const { status, body } = await rpc('tools/call', {
      params: { name: 'sum', arguments: { a: 2, b: 2 } },
      headers: { 'Mcp-Name': b64('sum') },
    });
    expect(status).toBe(200);
    expect(body.result?.structuredContent).toEqual({ sum: 4 });
  });

  it('rejects an invalid Base64 sentinel', async () => {
    await expectMismatch(
      'tools/call',
      { name: 'sum', arguments: { a: 1, b: 2 } },
      { 'Mcp-Name': '=?base64?!!!?=' },
      /not valid =\?base64\?/,
    );
  });
});

describe('Mcp-Param headers from x-mcp-header', () => {
  const url = () => fixtureUrl();
  const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
    rpc('tools/call', { url: url(), params: { name: 'routed', arguments: args }, headers });

  it('accepts mirrored string, integer, boolean and nested values', async () => {
    const { status, body } = await call(
      { region: 'us-west1', shard: 42, dryRun: false, nested: { tenant: 'acme' } },
      {
        'Mcp-Param-Region': 'us-west1',
        'Mcp-Param-Shard': '42',
        'Mcp-Param-Dry-Run': 'false',
        'Mcp-Param-Tenant': 'acme',
      },
    );
    expect(status).toBe(200);
    expect(body.result?.content).toEqual([{ type: 'text', text: 'routed to us-west1' }]);
  });

  it('decodes a Base64 value before comparing', async () => {
    const { status } = await call({ region: 'Hello, 世界' }, { 'Mcp-Param-Region': b64('Hello, 世界') });
    expect(status).toBe(200);
  });

  it('rejects a missing header when the body has the value', async () => {
    await expectMismatch(
      'tools/call',
      { name: 'routed', arguments: { region: 'eu' } },
      {},
      /Mcp-Param-Region header is required/,
      url(),
    );
  });

  it('rejects a header whose value differs from the body', async () => {
    await expectMismatch(
      'tools/call',
      { name: 'routed', arguments: { region: 'eu', shard: 1 } },
      { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Shard': '2' },
      /Mcp-Param-Shard header value '2' does not match body value '1'/,
      url(),
    );
  });

  it('rejects a header for a value the body does not have', async () => {
    await expectMismatch(
      'tools/call',
      { name: 'routed', arguments: { region: 'eu' } },
      { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Shard': '3' },
      /Mcp-Param-Shard header is present but arguments.shard has no value/,
      url(),
    );
  });

  it('rejects a header value with characters outside visible ASCII', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'routed',
        'Mcp-Param-Region': Buffer.from('caf\xe9', 'latin1').toString('latin1'),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'routed', arguments: { region: 'café' }, _meta: meta() },
      }),
    });
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/invalid characters/),
    });
  });

  it('holds an integer header to its decimal representation: no hex, binary, octal, exponent, sign or padding', async () => {
    for (const header of [
      '0x10',
      '0b10000',
      '0o20',
      '1.6e1',
      '+16',
      '016',
      '16.',
      '.16e2',
      '16.5',
      'Infinity',
      b64(' 16'),
      b64('16 '),
      b64('0x10'),
    ]) {
      await expectMismatch(
        'tools/call',
        { name: 'routed', arguments: { region: 'eu', shard: 16 } },
        { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Shard': header },
        /Mcp-Param-Shard header value .* is not a decimal integer/,
        url(),
      );
    }
    for (const [shard, header] of [
      [16, '16'],
      [16, '16.0'],
      [-7, '-7'],
      [0, '0'],
      [16, b64('16')],
    ] as const) {
      const { status, body } = await call(
        { region: 'eu', shard },
        { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Shard': header },
      );
      expect(status, `${shard} ${header}: ${JSON.stringify(body)}`).toBe(200);
    }
  });

  it('refuses an integer beyond 2^53, which a double cannot hold and so cannot be compared digit for digit', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'routed',
        'Mcp-Param-Region': 'eu',
        'Mcp-Param-Shard': '9007199254740992',
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"routed","arguments":{"region":"eu","shard":9007199254740993},"_meta":${JSON.stringify(meta())}}}`,
    });
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error).toMatchObject({
      code: -32020,
      message: expect.stringMatching(/arguments\.shard .*2\^53/),
    });
  });

  it('compares exactly what the client encoded: a non-canonical Base64 or a byte-order mark is not the body value', async () => {
    // "ZR==" decodes to "e" as "ZQ==" does, with bits set that canonical Base64 leaves zero
    await expectMismatch(
      'tools/call',
      { name: 'routed', arguments: { region: 'e' } },
      { 'Mcp-Param-Region': '=?base64?ZR==?=' },
      /not valid =\?base64\?/,
      url(),
    );
    await expectMismatch(
      'tools/call',
      { name: 'routed', arguments: { region: 'eu' } },
      { 'Mcp-Param-Region': b64('\uFEFFeu') },
      /does not match/,
      url(),
    );
    const { status } = await call({ region: '\uFEFFeu' }, { 'Mcp-Param-Region': b64('\uFEFFeu') });
    expect(status).toBe(200);
    await expectMismatch(
      'tools/call',
      { name: 'sum', arguments: { a: 1, b: 2 } },
      { 'Mcp-Name': b64('\uFEFFsum') },
      /does not match/,
    );
  });
});
