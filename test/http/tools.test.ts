/** tools/list and tools/call (spec 2026-07-28 server/tools), with the example tools and the fixture's. */
import { describe, expect, it } from 'vitest';
import { fixtureUrl, meta, rpc } from '../support/mcp';

describe('tools/list', () => {
  it('lists the example tools in a stable order with their schemas and no handlers', async () => {
    const first = await rpc('tools/list');
    const second = await rpc('tools/list');
    const names = first.body.result?.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(['add', 'github_repo', 'current_time']);
    expect(second.body.result?.tools).toEqual(first.body.result?.tools);
    expect(first.body.result?.tools[2].inputSchema.properties.timezone['x-mcp-header']).toBe('Timezone');
    expect(JSON.stringify(first.body.result)).not.toContain('handler');
    expect(first.body.result?.nextCursor).toBeUndefined();
  });

  it('pages with an opaque cursor until the list ends', async () => {
    const url = fixtureUrl();
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { body } = await rpc('tools/list', { url, params: cursor === undefined ? {} : { cursor } });
      expect(body.result).toMatchObject({ resultType: 'complete', ttlMs: 1500, cacheScope: 'private' });
      names.push(...body.result?.tools.map((t: { name: string }) => t.name));
      cursor = body.result?.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(7);
    expect(names).toEqual(['echo', 'countdown', 'fails', 'ask_user', 'routed', 'wizard', 'pushy', 'slow_upstream', 'impatient_upstream', 'hangs', 'huge', 'admin_only', 'traced']);
  });

  it('answers an unknown cursor with -32602', async () => {
    const { status, body } = await rpc('tools/list', { params: { cursor: 'not-a-cursor' } });
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32602);
  });
});

describe('tools/call', () => {
  it('runs a pure tool and returns structured content with serverInfo', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'add', arguments: { a: 2, b: 40 } } });
    expect(status).toBe(200);
    expect(body.result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: '{"sum":42}' }],
      structuredContent: { sum: 42 },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-worker-template', version: expect.any(String) } },
    });
  });

  it('answers an unknown tool with -32602', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'nope', arguments: {} } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: nope') });
  });

  it('reports arguments that break the inputSchema as a tool error the model can act on', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'add', arguments: { a: 'two', b: 2 } } });
    expect(status).toBe(200);
    expect(body.result?.isError).toBe(true);
    expect(body.result?.content[0].text).toMatch(/Invalid arguments for tool add: \/a: .*number/);
  });

  it('calls an upstream with fetch and returns its data', async () => {
    const { body } = await rpc('tools/call', { params: { name: 'github_repo', arguments: { owner: 'cloudflare', repo: 'workers-sdk' } } });
    expect(body.result?.structuredContent).toMatchObject({ name: 'cloudflare/workers-sdk', stars: 3000, language: 'TypeScript' });
  });

  it('turns upstream failures into tool errors', async () => {
    const missing = await rpc('tools/call', { params: { name: 'github_repo', arguments: { owner: 'acme', repo: 'missing' } } });
    expect(missing.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/does not exist/) }] });
    const broken = await rpc('tools/call', { params: { name: 'github_repo', arguments: { owner: 'acme', repo: 'broken' } } });
    expect(broken.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/HTTP 503/) }] });
  });

  it('mirrors the x-mcp-header parameter of current_time', async () => {
    const { status, body } = await rpc('tools/call', {
      params: { name: 'current_time', arguments: { timezone: 'Asia/Tokyo' } },
      headers: { 'Mcp-Param-Timezone': 'Asia/Tokyo' },
    });
    expect(status).toBe(200);
    expect(body.result?.content[0].text).toMatch(/GMT\+9|JST/);
  });

  it('turns an expected handler failure into isError and an unexpected one into -32603 without internals', async () => {
    const url = fixtureUrl();
    const expected = await rpc('tools/call', { url, params: { name: 'fails', arguments: { how: 'expected' } } });
    expect(expected.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the upstream said no' }] });
    for (const how of ['unexpected', 'malformed']) {
      const { status, body } = await rpc('tools/call', { url, params: { name: 'fails', arguments: { how } } });
      expect(status).toBe(500);
      expect(body.error).toEqual({ code: -32603, message: 'Internal error' });
    }
  });

  it('answers -32021 with requiredCapabilities when the client lacks a capability the tool needs', async () => {
    const url = fixtureUrl();
    const { status, body } = await rpc('tools/call', { url, params: { name: 'ask_user', arguments: {} } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    const withCapability = meta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
    const ok = await rpc('tools/call', { url, params: { name: 'ask_user', arguments: {}, _meta: withCapability } });
    expect(ok.body.result?.content).toEqual([{ type: 'text', text: 'asked' }]);
  });

  it('does not take an inherited property for a declared capability', async () => {
    const inherited = meta({ 'io.modelcontextprotocol/clientCapabilities': JSON.parse('{"__proto__":{"elicitation":{}}}') });
    const { body } = await rpc('tools/call', { url: fixtureUrl(), params: { name: 'ask_user', arguments: {}, _meta: inherited } });
    expect(body.error?.code).toBe(-32021);
  });
});
