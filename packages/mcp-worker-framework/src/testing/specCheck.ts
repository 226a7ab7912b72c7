/**
 * `specCheck(worker)`: the vitest tests that a Worker answers as the spec (revision 2026-07-28)
 * says: discover, each list it advertises (and -32601 for each it does not), a tool call whose
 * arguments break the tool's schema, a tool it does not serve, a version it does not speak, and,
 * when the test gives it credentials, a request without them. Every expected value is taken from
 * the server under test, so a fork's `test/spec.test.ts` is one line that holds for any server,
 * one with no tools, no resources or no prompts included, and a release of the package can fix it.
 *
 *   // test/spec.test.ts
 *   import { specCheck } from 'mcp-worker-framework/testing';
 *   import worker from '../src/index';
 *
 *   specCheck(worker); // with auth on: specCheck(worker, { env: { ... }, headers: { Authorization: 'Bearer …' } })
 */
import { describe, expect, it } from 'vitest';
import { type FetchTarget, JsonRpcError, type TestClientOptions, testClient } from './testClient.js';

const VERSION = '2026-07-28';
/** spec 2026-07-28 schema: JSON-RPC's "Method not found", the answer to a list the server does not advertise. */
const METHOD_NOT_FOUND = -32601;
/** spec 2026-07-28 basic/versioning: a version the server does not speak. */
const UNSUPPORTED_VERSION = -32022;

export interface SpecCheckOptions extends Pick<TestClientOptions, 'env' | 'headers'> {
  /** The describe block's title. Default: `the Worker, as the spec says`. */
  title?: string;
}

type Item = Record<string, unknown>;

/** The lists a server serves when its capabilities name the feature (spec 2026-07-28 server/discover). */
const LISTS = [
  { capability: 'tools', method: 'tools/list', key: 'tools', id: 'name' },
  { capability: 'resources', method: 'resources/list', key: 'resources', id: 'uri' },
  { capability: 'resources', method: 'resources/templates/list', key: 'resourceTemplates', id: 'uriTemplate' },
  { capability: 'prompts', method: 'prompts/list', key: 'prompts', id: 'name' },
] as const;

/** Arguments the schema refuses: a required property left out, else a property of another type, else one it does not allow; none when it takes anything. */
export function breaking(schema: Item): Item | undefined {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  if (Array.isArray(schema.required) && schema.required.length > 0) return {};
  const typed = Object.entries(properties).find(([, property]) => typeof property.type === 'string');
  if (typed) return { [typed[0]]: typed[1].type === 'string' ? 42 : 'not of its type' };
  if (schema.additionalProperties === false) return { 'not-a-declared-argument': true };
  return undefined;
}

/** Registers the spec's tests of `worker` (a Worker's default export, or `startInWorkerd`'s Worker) with vitest. */
export function specCheck(worker: FetchTarget, options: SpecCheckOptions = {}): void {
  const mcp = testClient(worker, options);
  const env = { MCP_STATE_SECRET: 'test kit secret', ...options.env };
  let discovered: Promise<Item> | undefined;
  const capabilities = async () =>
    ((await (discovered ??= mcp.discover().then(({ result }) => result))).capabilities ?? {}) as Item;
  /** Every tool it lists; none when it does not advertise tools (then tools/list is -32601, tested below). */
  const tools = async () =>
    (await capabilities()).tools === undefined ? [] : ((await mcp.listTools()).result.tools as Item[]);

  describe(options.title ?? 'the Worker, as the spec says', () => {
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

    it.each(LISTS)(
      '$method: each item named once when it advertises $capability, else -32601',
      async ({ capability, method, key, id }) => {
        if ((await capabilities())[capability] === undefined) {
          await expect(mcp.request(method)).rejects.toMatchObject({ code: METHOD_NOT_FOUND });
          return;
        }
        const items = ((await mcp.request(method)).result[key] ?? []) as Item[];
        const ids = items.map((item) => item[id]);
        expect(ids.every((value) => typeof value === 'string' && value.length > 0)).toBe(true);
        expect(new Set(ids).size).toBe(ids.length);
      },
    );

    it('lists each tool with an object inputSchema', async () => {
      for (const tool of await tools()) expect(tool.inputSchema, `tool ${tool.name}`).toMatchObject({ type: 'object' });
    });

    it("answers a call whose arguments break the tool's schema with a tool error, for every tool whose schema can be broken", async () => {
      for (const tool of await tools()) {
        const args = breaking(tool.inputSchema as Item);
        if (args === undefined) continue;
        const { result, status } = await mcp.callTool(String(tool.name), args);
        expect(status, `tool ${tool.name}`).toBe(200);
        expect(result, `tool ${tool.name} with ${JSON.stringify(args)}`).toMatchObject({
          isError: true,
          content: [expect.objectContaining({ type: 'text' })],
        });
      }
    });

    it('refuses a call of a tool it does not serve with a JSON-RPC error', async () => {
      const names = new Set((await tools()).map((tool) => tool.name));
      let missing = 'no-such-tool';
      while (names.has(missing)) missing += '-really';
      await expect(mcp.callTool(missing, {})).rejects.toBeInstanceOf(JsonRpcError);
    });

    it('answers a version it does not speak with HTTP 400 and -32022, naming the versions discover gives', async () => {
      const unknown = '1999-01-01';
      const response = await worker.fetch(listAt(unknown, options.headers), env as never, noContext as never);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error?: { code: number; data?: { supported?: string[] } } };
      expect(body.error?.code).toBe(UNSUPPORTED_VERSION);
      expect(body.error?.data?.supported).toEqual((await mcp.discover()).result.supportedVersions);
    });

    // With credentials given, the server needs them: without, 401 and a challenge (spec 2026-07-28 basic/authorization).
    if (options.headers?.Authorization !== undefined) {
      it('refuses a request without the credentials it was given: 401 with a WWW-Authenticate challenge', async () => {
        const { Authorization: _, ...others } = options.headers ?? {};
        const response = await worker.fetch(listAt(VERSION, others), env as never, noContext as never);
        expect(response.status).toBe(401);
        expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer\b/);
      });
    }
  });
}

const noContext = { waitUntil() {}, passThroughOnException() {}, props: {} };

/** A `tools/list` at `version`, header and body agreeing, as a conforming client of that version sends it. */
function listAt(version: string, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': version,
      'Mcp-Method': 'tools/list',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}
