/** tools/list and tools/call (spec 2026-07-28 server/tools), against the fixtures. */
import { describe, expect, it } from 'vitest';
import { defaults } from '../fixtures/defaults';
import { anonymousTools, tools as fixtureTools } from '../fixtures/tools';
import { atUrl, testClient, textOf } from '../../src/testing';
import { defaultsUrl, fixtureUrl, meta, requestsTo } from '../support/mcp';

/** The wire itself, where a test reads what a client would not show (a page's nextCursor, an error's exact shape). */
const { rpc } = requestsTo(defaultsUrl());
/** What a client does, on the defaults fixture and on the fixture. */
const mcp = testClient(atUrl(defaultsUrl()));
const onFixture = testClient(atUrl(fixtureUrl()));

describe('tools/list', () => {
  it('lists the registered tools in a stable order with their schemas and no handlers', async () => {
    const first = await rpc('tools/list');
    const second = await rpc('tools/list');
    // Each listed tool is its definition without what only the server uses.
    const serverOnly = ['handler', 'requiresClientCapabilities', 'requiredScopes', 'timeoutMs'];
    const listed = defaults.tools.map((tool) =>
      Object.fromEntries(Object.entries(tool).filter(([key]) => !serverOnly.includes(key))),
    );
    expect(first.body.result?.tools).toEqual(listed);
    expect(second.body.result?.tools).toEqual(first.body.result?.tools);
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
    // An anonymous caller (the fixture runs without auth) is shown only the tools that need no scope.
    const shown = anonymousTools;
    expect(shown.length).toBeLessThan(fixtureTools.length);
    expect(pages).toBe(Math.ceil(shown.length / 2)); // the fixture's pageSize
    expect(names).toEqual(shown.map((tool) => tool.name));
  });
  // An unknown cursor: test/spec/features.test.ts (pagination).
});

describe('tools/call', () => {
  it('runs a pure tool and returns structured content with serverInfo', async () => {
    const { status, result } = await mcp.callTool('sum', { a: 2, b: 40 });
    expect(status).toBe(200);
    expect(result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: '{"sum":42}' }],
      structuredContent: { sum: 42 },
      _meta: { 'io.modelcontextprotocol/serverInfo': defaults.info },
    });
  });

  it('answers an unknown tool with -32602', async () => {
    await expect(mcp.callTool('nope')).rejects.toMatchObject({
      status: 400,
      code: -32602,
      message: expect.stringContaining('Unknown tool: nope'),
    });
  });

  it('reports arguments that break the inputSchema as a tool error the model can act on', async () => {
    const { status, result } = await mcp.callTool('sum', { a: 'two', b: 2 });
    expect(status).toBe(200);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Invalid arguments for tool sum: \/a: .*number/);
  });

  it('answers arguments that break a closed schema 100,000 times with a tool error naming a handful', async () => {
    const extra = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const { status, result } = await mcp.callTool('sum', { a: 1, b: 2, ...extra });
    expect(status).toBe(200);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid arguments for tool sum: \/k99995: .*; \/k99999: [^;]*$/);
  });

  it('answers a property name that is not well-formed Unicode with a tool error, not a 500', async () => {
    // JSON.stringify escapes the lone surrogate (\ud800), which the Worker's JSON.parse restores.
    const { status, result } = await mcp.callTool('sum', { a: 1, b: 2, '\ud800': 3 });
    expect(status).toBe(200);
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/not well-formed Unicode/) }],
    });
  });

  it('turns an expected handler failure into isError and an unexpected one into -32603 without internals', async () => {
    const url = fixtureUrl();
    const expected = await onFixture.callTool('fails', { how: 'expected' });
    expect(expected.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the upstream said no' }] });
    for (const how of ['unexpected', 'malformed']) {
      const { status, body } = await rpc('tools/call', { url, params: { name: 'fails', arguments: { how } } });
      expect(status).toBe(500);
      expect(body.error).toEqual({ code: -32603, message: 'Internal error' });
    }
  });

  it('answers -32021 with requiredCapabilities when the client lacks a capability the tool needs', async () => {
    await expect(onFixture.callTool('ask_user')).rejects.toMatchObject({
      status: 400,
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    const ok = await onFixture.callTool('ask_user', {}, { capabilities: { elicitation: {} } });
    expect(ok.result.content).toEqual([{ type: 'text', text: 'asked' }]);
  });

  it('does not take an inherited property for a declared capability', async () => {
    const inherited = meta({
      'io.modelcontextprotocol/clientCapabilities': JSON.parse('{"__proto__":{"elicitation":{}}}'),
    });
    const { body } = await rpc('tools/call', {
      url: fixtureUrl(),
      params: { name: 'ask_user', arguments: {}, _meta: inherited },
    });
    expect(body.error?.code).toBe(-32021);
  });
});
