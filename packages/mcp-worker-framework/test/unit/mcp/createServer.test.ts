/** The protocol core, called directly: no HTTP, no workerd. */
import { describe, expect, it } from 'vitest';
import { defineTool, text } from '../../../src/mcp/define';
import { RawJson } from '../../../src/mcp/json';
import { createServer } from '../../../src/mcp/createServer';
import type { McpRequest } from '../../../src/mcp/request';
import { mcpRequest } from '../../support/request';

const tools = Array.from({ length: 7 }, (_, i) =>
  defineTool({ name: `tool_${i}`, inputSchema: { type: 'object' }, handler: () => text(`ran ${i}`) }),
);
const server = createServer({ info: { name: 'unit', version: '0.0.1' }, tools, pageSize: 3 });
const meta = { protocolVersion: '2026-07-28', clientCapabilities: {} };
const call: Partial<McpRequest> = {};
const request = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0' as const,
  id: 1,
  method,
  params,
});
const json = (result: unknown) => JSON.parse((result as RawJson).json);

describe('createServer', () => {
  it('precomputes the discover result once', async () => {
    const a = await server.handle(mcpRequest(request('server/discover'), meta, call));
    const b = await server.handle(mcpRequest(request('server/discover'), meta, call));
    expect(a.result).toBeInstanceOf(RawJson);
    expect(a.result).toBe(b.result);
    expect(json(a.result)).toMatchObject({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } });
  });

  it('advertises no capability it does not serve', async () => {
    const empty = createServer({ info: { name: 'empty', version: '0' } });
    expect(json((await empty.handle(mcpRequest(request('server/discover'), meta, call))).result).capabilities).toEqual(
      {},
    );
    expect((await empty.handle(mcpRequest(request('tools/list'), meta, call))).error?.code).toBe(-32601);
  });

  it('pages tools/list and the pages chain to the end', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = json(
        (await server.handle(mcpRequest(request('tools/list', cursor ? { cursor } : {}), meta, call))).result,
      );
      seen.push(...page.tools.map((t: { name: string }) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(tools.map((t) => t.name));
  });

  it('refuses a handler that asks for more than 16 inputs at once with -32602', async () => {
    const { defineTool: tool, inputRequired, listRoots } = await import('../../../src/mcp');
    const greedy = createServer({
      info: { name: 'greedy', version: '0' },
      tools: [
        tool({
          name: 'greedy',
          inputSchema: { type: 'object' },
          handler: () =>
            inputRequired(Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`r${i}`, listRoots()]))),
        }),
      ],
    });
    const reply = await greedy.handle(
      mcpRequest(request('tools/call', { name: 'greedy' }), { ...meta, clientCapabilities: { roots: {} } }, call),
    );
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toMatch(/more than 16 inputs/);
  });

  it('refuses a second tool with the same name at load time', () => {
    expect(() => createServer({ info: { name: 'dup', version: '0' }, tools: [tools[0]!, tools[0]!] })).toThrow(
      /defined twice/,
    );
  });

  it('refuses an unsupported version before looking at the method', async () => {
    const reply = await server.handle(mcpRequest(request('no/such'), { ...meta, protocolVersion: '2025-06-18' }, call));
    expect(reply.error?.data).toEqual({ supported: ['2026-07-28'], requested: '2025-06-18' });
  });

  it('sends progress only with a token and only while it increases, logs only at the requested level', async () => {
    const sent: unknown[] = [];
    const chatty = createServer({
      info: { name: 'chatty', version: '0' },
      logging: true,
      tools: [
        defineTool({
          name: 'chatty',
          inputSchema: { type: 'object' },
          handler: (_, { progress, log }) => {
            progress(1);
            progress(1);
            progress(0.5);
            progress(2, 2);
            log('debug', 'hidden');
            log('error', 'shown');
            return text('ok');
          },
        }),
      ],
    });
    const notify = (n: unknown) => void sent.push(n);
    await chatty.handle(mcpRequest(request('tools/call', { name: 'chatty' }), meta, { ...call, notify }));
    expect(sent).toEqual([]);
    await chatty.handle(
      mcpRequest(
        request('tools/call', { name: 'chatty' }),
        { ...meta, progressToken: 'p', logLevel: 'warning' },
        { ...call, notify },
      ),
    );
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 2, total: 2 } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'shown' } },
    ]);
  });

  it('refuses a tool whose required client capability the request lacks, with -32021, whatever the transport', async () => {
    let ran = 0;
    const asks = defineTool({
      name: 'asks',
      inputSchema: { type: 'object' },
      requiresClientCapabilities: ['elicitation.url'],
      handler: () => (ran++, text('ran')),
    });
    const core = createServer({ info: { name: 'core-rules', version: '0' }, tools: [asks] });
    const refused = await core.handle(
      mcpRequest(
        request('tools/call', { name: 'asks' }),
        { ...meta, clientCapabilities: { elicitation: { form: {} } } },
        call,
      ),
    );
    expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
    expect(ran).toBe(0);
    const served = await core.handle(
      mcpRequest(
        request('tools/call', { name: 'asks' }),
        { ...meta, clientCapabilities: { elicitation: { url: {} } } },
        call,
      ),
    );
    expect(served.error).toBeUndefined();
    expect(ran).toBe(1);
  });

  it('serves an optional task tool as an ordinary call on a server without the Tasks extension, and advertises no extension', async () => {
    const later = defineTool({
      name: 'later',
      inputSchema: { type: 'object' },
      task: 'optional',
      handler: () => text('done now'),
    });
    const plain = createServer({ info: { name: 'no-tasks', version: '0' }, tools: [later] });
    const declaring = { ...meta, clientCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
    expect(
      json((await plain.handle(mcpRequest(request('tools/call', { name: 'later' }), declaring, call))).result),
    ).toMatchObject({ resultType: 'complete', content: [{ text: 'done now' }] });
    expect(
      json((await plain.handle(mcpRequest(request('server/discover'), meta, call))).result).capabilities,
    ).not.toHaveProperty('extensions');
  });

  it('refuses at load an extension that serves a method already served, and one listed twice', () => {
    const grabby = { id: 'example.com/grabby', install: () => ({ methods: { 'tools/list': () => ({ result: {} }) } }) };
    expect(() => createServer({ info: { name: 'x', version: '0' }, tools }, [grabby])).toThrow(
      /extension example.com\/grabby serves tools\/list, which is served already/,
    );
    const quiet = { id: 'example.com/quiet', install: () => ({}) };
    expect(() => createServer({ info: { name: 'x', version: '0' } }, [quiet, quiet])).toThrow(
      /extension "example.com\/quiet" is defined twice/,
    );
  });

  it("advertises each extension with its settings, serves its methods finished like the core's, and adds its fields to listed tools", async () => {
    const echo = {
      id: 'example.com/echo',
      settings: { loud: true },
      toolFields: () => ({ _meta: { 'example.com/echo': 'on' } }),
      install: () => ({ methods: { 'echo/say': (r: McpRequest) => ({ result: { said: r.message.params?.text } }) } }),
    };
    const withEcho = createServer({ info: { name: 'echoing', version: '1' }, tools: [tools[0]!] }, [echo]);
    expect(
      json((await withEcho.handle(mcpRequest(request('server/discover'), meta, call))).result).capabilities.extensions,
    ).toEqual({ 'example.com/echo': { loud: true } });
    expect(json((await withEcho.handle(mcpRequest(request('echo/say', { text: 'hi' }), meta, call))).result)).toEqual({
      resultType: 'complete',
      said: 'hi',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'echoing', version: '1' } },
    });
    expect(json((await withEcho.handle(mcpRequest(request('tools/list'), meta, call))).result).tools[0]._meta).toEqual({
      'example.com/echo': 'on',
    });
  });
});
