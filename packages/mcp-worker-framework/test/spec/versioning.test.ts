/**
 * spec 2026-07-28 basic/versioning and server/discover; the legacy path of spec 2025-11-25
 * lifecycle and basic/transports (the initialize handshake, served statelessly).
 */
import { describe, expect, inject, it } from 'vitest';
import { meta, replyOf, requestsTo, VERSION } from '../support/mcp';
import { expectErrorSchema, expectSchema } from './expectSchema';

const specUrl = inject('specUrl');
const { raw, rpc } = requestsTo(specUrl);

const LEGACY = '2025-11-25';

/** A legacy POST: no modern _meta; the version, if any, in the header only. */
async function legacy(
  method: string,
  params: Record<string, unknown> | undefined,
  version: string | null,
  id: number | string = 1,
) {
  const response = await raw(
    JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }),
    version ? { 'MCP-Protocol-Version': version } : {},
  );
  return { status: response.status, headers: response.headers, body: await replyOf(response) };
}

const initialize = (protocolVersion: string) =>
  legacy(
    'initialize',
    { protocolVersion, capabilities: {}, clientInfo: { name: 'legacy-client', version: '1' } },
    null,
  );

describe('basic/versioning', () => {
  it('basic/versioning: "it MUST respond with an UnsupportedProtocolVersionError listing the versions it does support" for an unknown version', async () => {
    const { status, body } = await rpc('tools/list', {
      params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
      headers: { 'MCP-Protocol-Version': '1900-01-01' },
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: -32022,
      data: { requested: '1900-01-01', supported: expect.arrayContaining([VERSION, LEGACY]) },
    });
    expectErrorSchema(body, 'UnsupportedProtocolVersionError');
    // the same list discover gives
    expect(body.error?.data.supported).toEqual((await rpc('server/discover')).body.result?.supportedVersions);
  });

  it('basic/versioning: "or is a known version the server has chosen not to support": a legacy version in _meta is refused with -32022', async () => {
    const { status, body } = await rpc('tools/list', {
      params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': LEGACY } },
      headers: { 'MCP-Protocol-Version': LEGACY },
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32022, data: { requested: LEGACY } });
  });

  it('basic/versioning: "MUST respond with an UnsupportedProtocolVersionError" when only the header names an unknown version and the body has no _meta', async () => {
    const { status, body } = await legacy('tools/list', {}, '2099-01-01');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: -32022,
      data: { requested: '2099-01-01', supported: expect.arrayContaining([VERSION, LEGACY]) },
    });
    expectErrorSchema(body, 'UnsupportedProtocolVersionError');
  });

  it.each([
    [`${VERSION}-rc`, 'a supported one'],
    [`${LEGACY}-rc`, 'a legacy one'],
    [`${VERSION}x`, 'a supported one'],
  ])(
    'basic/versioning: %s, which merely starts with %s, is an unknown version: 400 and -32022 with data.requested as sent, in _meta or in the header alone',
    async (version) => {
      const modern = await rpc('tools/list', {
        params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': version } },
        headers: { 'MCP-Protocol-Version': version },
      });
      const headerOnly = await legacy('tools/list', {}, version);
      for (const { status, body } of [modern, headerOnly]) {
        expect(status).toBe(400);
        expect(body.error).toMatchObject({ code: -32022, data: { requested: version } });
        expectErrorSchema(body, 'UnsupportedProtocolVersionError');
      }
    },
  );

  it('basic/versioning: "Servers MUST implement server/discover" with the versions, capabilities and serverInfo', async () => {
    const { status, body } = await rpc('server/discover');
    expect(status).toBe(200);
    expectSchema(body, 'DiscoverResultResponse');
    expect(body.result).toMatchObject({ capabilities: expect.any(Object) });
    // the modern version first, then the legacy ones this deployment also serves
    expect(body.result?.supportedVersions[0]).toBe(VERSION);
    expect(body.result?.supportedVersions).toContain(LEGACY);
  });

  it('basic/versioning: "the supporting party MUST either revert to core protocol behavior": unknown client extensions change nothing', async () => {
    const { body } = await rpc('tools/call', {
      params: { name: 'echo', arguments: { text: 'core' } },
      capabilities: { extensions: { 'com.example/unknown': { mode: 'x' } } },
    });
    expect(body.result?.content[0].text).toBe('core');
  });

  it('basic/versioning: a dual-era server "MAY serve both eras concurrently": initialize and a modern request on the same endpoint', async () => {
    const [old, modern] = await Promise.all([initialize(LEGACY), rpc('server/discover')]);
    expect(old.body.result?.protocolVersion).toBe(LEGACY);
    expect(modern.body.result?.resultType).toBe('complete');
  });
});

describe('a modern-only deployment (LEGACY_CLIENTS = "off")', () => {
  const modernOnly = () => inject('specModernOnlyUrl');

  it('basic/versioning: "A server that supports only modern versions SHOULD name the protocol versions it supports in any error it returns to an initialize request"', async () => {
    const response = await raw(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      }),
      {},
      modernOnly(),
    );
    expect(response.status).toBe(400);
    const body = await replyOf(response);
    expect(body.error).toMatchObject({
      code: -32022,
      message: expect.stringContaining(VERSION),
      data: { supported: [VERSION], requested: LEGACY },
    });
    expectErrorSchema(body, 'UnsupportedProtocolVersionError');
  });

  it('basic/versioning: "or is a known version the server has chosen not to support": a legacy version in the header alone is -32022 naming only the modern one', async () => {
    const response = await raw(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      { 'MCP-Protocol-Version': LEGACY },
      modernOnly(),
    );
    expect(response.status).toBe(400);
    expect((await replyOf(response)).error).toMatchObject({
      code: -32022,
      data: { supported: [VERSION], requested: LEGACY },
    });
    const discover = await rpc('server/discover', { url: modernOnly() });
    expect(discover.body.result?.supportedVersions).toEqual([VERSION]);
  });
});

describe('server/discover', () => {
  it('server/discover: "Servers SHOULD include this field": serverInfo is in the discover result _meta', async () => {
    const { body } = await rpc('server/discover');
    expect(body.result?._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: expect.any(String),
      version: expect.any(String),
    });
  });

  it('server/discover: the capabilities advertised are those served (tools, resources, prompts, completions, logging)', async () => {
    const { body } = await rpc('server/discover');
    expect(Object.keys(body.result?.capabilities ?? {}).sort()).toEqual([
      'completions',
      'logging',
      'prompts',
      'resources',
      'tools',
    ]);
  });
});

describe('legacy lifecycle (2025-11-25), served statelessly', () => {
  it('legacy/lifecycle: "If the server supports the requested protocol version, it MUST respond with the same version"', async () => {
    for (const version of [LEGACY, '2025-06-18']) {
      const { body } = await initialize(version);
      expect(body.result?.protocolVersion).toBe(version);
    }
  });

  it('legacy/lifecycle: "Otherwise, the server MUST respond with another protocol version it supports", the latest', async () => {
    for (const version of ['2024-11-05', '1900-01-01', VERSION]) {
      expect((await initialize(version)).body.result?.protocolVersion).toBe(LEGACY);
    }
  });

  it('legacy/lifecycle: "The server MUST respond with its own capabilities and information", the same as discover says', async () => {
    const [{ body }, discover] = await Promise.all([initialize(LEGACY), rpc('server/discover')]);
    expect(body.result).toMatchObject({
      capabilities: discover.body.result?.capabilities,
      serverInfo: discover.body.result?._meta['io.modelcontextprotocol/serverInfo'],
      instructions: discover.body.result?.instructions,
    });
    expect(body.result).not.toHaveProperty('resultType');
  });

  it('legacy/transports: "If the server receives a request with an invalid or unsupported MCP-Protocol-Version, it MUST respond with 400 Bad Request"', async () => {
    for (const version of ['2024-01-01', 'not a version']) {
      const { status, body } = await legacy('tools/list', {}, version);
      expect(status, version).toBe(400);
      expect(body.error?.code).toBe(-32022);
    }
  });

  it('legacy/transports: "the server SHOULD assume protocol version 2025-03-26" without the header, and serve the request', async () => {
    const { status, body } = await legacy('tools/list', {}, null);
    expect(status).toBe(200);
    expect(Array.isArray(body.result?.tools)).toBe(true);
  });

  it('legacy/transports: "If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body" for initialized', async () => {
    const response = await raw(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
      'MCP-Protocol-Version': LEGACY,
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('legacy/transports: "return HTTP 405 Method Not Allowed" to GET: this server offers no SSE stream at the endpoint', async () => {
    const response = await fetch(specUrl, { headers: { Accept: 'text/event-stream', 'MCP-Protocol-Version': LEGACY } });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
  });

  it('legacy 2025-03-26: "MUST support receiving" JSON-RPC batches: requests answered in one JSON array, notifications not at all', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo', arguments: { text: 'one' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 'b',
        method: 'tools/call',
        params: { name: 'steps', arguments: { count: 2 }, _meta: { progressToken: 1 } },
      },
      { jsonrpc: '2.0', id: 'c', method: 'no/such/method' },
      [],
    ];
    for (const headers of [{}, { 'MCP-Protocol-Version': '2025-03-26' }] as Record<string, string>[]) {
      const response = await raw(JSON.stringify(batch), headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('application/json');
      const replies = (await response.json()) as {
        id: string | null;
        result?: { content: { text: string }[] };
        error?: { code: number };
      }[];
      expect(replies.map((r) => r.id)).toEqual(['a', 'b', 'c', null]);
      expect(replies[0]?.result?.content[0]?.text).toBe('one');
      expect(replies[1]?.result?.content[0]?.text).toBe('2 steps');
      expect(replies[2]?.error?.code).toBe(-32601);
      expect(replies[3]?.error?.code).toBe(-32600);
    }
  });

  it('legacy 2025-03-26: a batch of notifications only is accepted with 202; an empty batch is one -32600', async () => {
    const notifications = await raw(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }]));
    expect(notifications.status).toBe(202);
    const empty = await raw('[]');
    expect(empty.status).toBe(400);
    expect((await replyOf(empty)).error?.code).toBe(-32600);
  });

  it('legacy/transports: "The body of the POST request MUST be a single JSON-RPC request, notification, or response": no batch from 2025-06-18 on', async () => {
    const batch = JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    for (const version of [LEGACY, '2025-06-18']) {
      const response = await raw(batch, { 'MCP-Protocol-Version': version });
      expect(response.status).toBe(400);
      expect((await replyOf(response)).error?.code).toBe(-32600);
    }
  });
});
