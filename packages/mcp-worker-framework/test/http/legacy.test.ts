/** Clients of the initialize era, served statelessly (spec 2026-07-28 basic/versioning; spec 2025-11-25). */
import { describe, expect, inject, it } from 'vitest';
import { defaults } from '../fixtures/defaults';
import { defaultsUrl, fixtureUrl, replyOf, requestsTo } from '../support/mcp';

const { rpc } = requestsTo(defaultsUrl());

/** A legacy POST: no modern _meta, the version (if any) only in the header. */
async function legacy(
  method: string,
  params?: Record<string, unknown>,
  { version = '2025-11-25' as string | null, url = defaultsUrl(), id = 1 } = {},
) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(version ? { 'MCP-Protocol-Version': version } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }),
  });
  return { status: response.status, headers: response.headers, body: await replyOf(response) };
}

const initialize = (protocolVersion: string, url?: string) =>
  legacy(
    'initialize',
    { protocolVersion, capabilities: {}, clientInfo: { name: 'old-client', version: '1' } },
    { version: null, url },
  );

// An unknown version header, and notifications/initialized answered 202: test/spec/versioning.test.ts.
describe('legacy clients', () => {
  it('initialize answers with the same capabilities, serverInfo and instructions as discover, and mints no session', async () => {
    const { status, headers, body } = await initialize('2025-11-25');
    const discover = (await rpc('server/discover')).body.result;
    expect(status).toBe(200);
    expect(headers.get('Mcp-Session-Id')).toBeNull();
    expect(body.result).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: discover?.capabilities,
      serverInfo: discover?._meta['io.modelcontextprotocol/serverInfo'],
      instructions: discover?.instructions,
    });
  });

  it.each([
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
  ])('negotiates: asked %s, answers %s', async (asked, answered) => {
    expect((await initialize(asked)).body.result?.protocolVersion).toBe(answered);
  });

  it('serves later requests from the MCP-Protocol-Version header alone, or as 2025-03-26 without it', async () => {
    for (const version of ['2025-11-25', '2025-06-18', null]) {
      const { status, body } = await legacy('tools/list', {}, { version });
      expect(status).toBe(200);
      expect(body.result?.tools.map((t: { name: string }) => t.name)).toEqual(defaults.tools.map((tool) => tool.name));
    }
    const call = await legacy('tools/call', { name: 'sum', arguments: { a: 1, b: 2 } });
    expect(call.body.result?.structuredContent).toEqual({ sum: 3 });
    expect((await legacy('ping')).body.result).toBeDefined();
  });

  it('answers JSON-RPC errors with 200, and resource-not-found with the legacy -32002', async () => {
    const unknownTool = await legacy('tools/call', { name: 'nope', arguments: {} });
    expect(unknownTool.status).toBe(200);
    expect(unknownTool.body.error?.code).toBe(-32602);
    const missing = await legacy('resources/read', { uri: 'test://nowhere' });
    expect(missing.status).toBe(200);
    expect(missing.body.error).toMatchObject({ code: -32002, data: { uri: 'test://nowhere' } });
    const discover = await legacy('server/discover');
    expect(discover.body.error?.code).toBe(-32601);
  });

  it('says clearly that a tool that must ask the client cannot, instead of hanging', async () => {
    const { status, body } = await legacy(
      'tools/call',
      { name: 'wizard', arguments: { greeting: 'hi' } },
      { url: fixtureUrl() },
    );
    expect(status).toBe(200);
    expect(body.error?.message).toMatch(/2026-07-28/);
  });

  it('keeps modern requests strict: a modern claim without clientCapabilities is still -32602', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    expect((await rpc('tools/list', { body })).status).toBe(400);
  });
});

// With LEGACY_CLIENTS = "off", initialize and a legacy version are refused with -32022: test/spec/versioning.test.ts.
describe('modern-only switch (LEGACY_CLIENTS = "off")', () => {
  it('takes a request with neither _meta nor a version header for a modern one without its _meta: -32602', async () => {
    const unnamed = await legacy('tools/list', {}, { url: inject('specModernOnlyUrl'), version: null });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error?.code).toBe(-32602);
  });
});
