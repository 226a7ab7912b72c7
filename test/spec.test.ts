/**
 * The Worker src/index.ts composes answers as the spec (revision 2026-07-28) says: discover, each
 * list it advertises, a tool call with arguments that break the tool's schema, and a version it
 * does not speak. Every expected value is taken from the server itself, so this file stays as it
 * is when you replace the examples with your own tools, resources and prompts.
 */
import { JsonRpcError, testClient } from 'mcp-worker-framework/testing';
import { describe, expect, it } from 'vitest';
import worker from '../src/index';

const VERSION = '2026-07-28';
const mcp = testClient(worker);

/** The lists a server serves when its capabilities name the feature (spec server/discover). */
const LISTS = [
  { capability: 'tools', list: () => mcp.listTools(), key: 'tools', id: 'name' },
  { capability: 'resources', list: () => mcp.listResources(), key: 'resources', id: 'uri' },
  { capability: 'prompts', list: () => mcp.listPrompts(), key: 'prompts', id: 'name' },
] as const;

/** Arguments the schema refuses: a required property left out, else a property of another type, else one it does not allow; none when it takes anything. */
function breaking(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  if (Array.isArray(schema.required) && schema.required.length > 0) return {};
  const typed = Object.entries(properties).find(([, property]) => typeof property.type === 'string');
  if (typed) return { [typed[0]]: typed[1].type === 'string' ? 42 : 'not of its type' };
  if (schema.additionalProperties === false) return { 'not-a-declared-argument': true };
  return undefined;
}

describe('the Worker of src/index.ts, as the spec says', () => {
  it('discover: the version it speaks first, its capabilities, and how long the answer may be cached', async () => {
    const { result, status } = await mcp.discover();
    expect(status).toBe(200);
    // spec 2026-07-28 schema, DiscoverResult: its required members
    expect(result).toMatchObject({
      supportedVersions: expect.any(Array),
      capabilities: expect.any(Object),
      ttlMs: expect.any(Number),
      cacheScope: expect.stringMatching(/^(public|private)$/),
    });
    expect(result.supportedVersions[0]).toBe(VERSION);
  });

  it.each(LISTS)('lists its $key when it advertises them, each named once', async ({ capability, list, key, id }) => {
    const { result: discovered } = await mcp.discover();
    if (discovered.capabilities[capability] === undefined) {
      await expect(list()).rejects.toMatchObject({ code: -32601 });
      return;
    }
    const items = ((await list()).result as Record<string, Array<Record<string, unknown>>>)[key] ?? [];
    const ids = items.map((item) => item[id]);
    expect(ids.every((value) => typeof value === 'string' && value.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists each tool with an object inputSchema', async () => {
    for (const tool of (await mcp.listTools()).result.tools)
      expect(tool.inputSchema, `tool ${tool.name}`).toMatchObject({ type: 'object' });
  });

  it("answers a call whose arguments break the tool's schema with a tool error, for every tool whose schema can be broken", async () => {
    for (const tool of (await mcp.listTools()).result.tools) {
      const args = breaking(tool.inputSchema);
      if (args === undefined) continue;
      const { result, status } = await mcp.callTool(tool.name, args);
      expect(status, `tool ${tool.name}`).toBe(200);
      expect(result, `tool ${tool.name} with ${JSON.stringify(args)}`).toMatchObject({
        isError: true,
        content: [expect.objectContaining({ type: 'text' })],
      });
    }
  });

  it('refuses a call of a tool it does not serve', async () => {
    const names = new Set((await mcp.listTools()).result.tools.map((tool) => tool.name));
    let missing = 'no-such-tool';
    while (names.has(missing)) missing += '-really';
    await expect(mcp.callTool(missing, {})).rejects.toBeInstanceOf(JsonRpcError);
  });

  it('answers a version it does not speak with HTTP 400 and -32022, naming the versions discover gives', async () => {
    const unknown = '1999-01-01';
    const response = await worker.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': unknown,
          'Mcp-Method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': unknown,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      }),
      // As the test kit calls it: your tools without a credential, whatever `auth` lists.
      { MCP_STATE_SECRET: 'spec test secret', AUTH_MODE: 'none' } as never,
      { waitUntil() {}, passThroughOnException() {}, props: {} } as never,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error?: { code: number; data?: { supported?: string[] } } };
    expect(body.error?.code).toBe(-32022);
    expect(body.error?.data?.supported).toEqual((await mcp.discover()).result.supportedVersions);
  });
});
