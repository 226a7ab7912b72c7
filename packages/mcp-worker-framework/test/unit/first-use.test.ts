/**
 * What a cold start does not pay for (docs/performance.md, "Module load"): a tool's validators
 * are built on its first call that needs them, a list's pages on its first request (for each kind
 * of caller and era), once per isolate, never at module load.
 */
import { describe, expect, it, vi } from 'vitest';

const built = vi.hoisted(() => ({ validators: 0 }));
// A validator is built when its schema is dereferenced (the lookup of its subschemas), once.
vi.mock('@cfworker/json-schema', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@cfworker/json-schema')>();
  const dereference: typeof actual.dereference = (...args) => (built.validators++, actual.dereference(...args));
  return { ...actual, dereference };
});

const paginated = vi.hoisted(() => ({ lists: [] as string[] }));
vi.mock('../../src/mcp/paginate', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/mcp/paginate')>();
  return {
    paginate: (...args: Parameters<typeof actual.paginate>) => (
      paginated.lists.push(args[0]), actual.paginate(...args)
    ),
  };
});

const { defineTool, text } = await import('../../src/mcp/define');
const { compileTool } = await import('../../src/mcp/tools');
const { createServer } = await import('../../src/mcp/createServer');
const { mcpRequest } = await import('../support/request');
const { CompiledDefinition } = await import('../../src/mcp/compiledDefinition');
const { ToolError } = await import('../../src/mcp/define');

describe('a tool compiled at load builds its validators on first use', () => {
  it('builds none when compiled, the input one on the first check of arguments, the output one on the first check of a result, each once', () => {
    built.validators = 0;
    const compiled = compileTool(
      defineTool({
        name: 'sum',
        inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
        handler: ({ a }) => ({ content: [], structuredContent: { sum: a ?? 0 } }),
      }),
    );
    expect(built.validators).toBe(0);
    expect(compiled.readArguments({ a: 1 })).toEqual({ a: 1 });
    expect(built.validators).toBe(1);
    expect((compiled.readArguments({}) as InstanceType<typeof ToolError>).message).toMatch(/a/);
    expect((compiled.readArguments({ a: 'x' }) as InstanceType<typeof ToolError>).message).toMatch(/\/a/);
    expect(built.validators).toBe(1);
    expect(compiled.checkOutput({ sum: 2 })).toBeUndefined();
    expect(compiled.checkOutput({})).toMatch(/sum/);
    expect(built.validators).toBe(2);
  });

  it('still refuses at load what an author got wrong: a dialect it cannot check, a network $ref', () => {
    const tool = (inputSchema: Record<string, unknown>) =>
      defineTool({ name: 't', inputSchema, handler: () => text('') });
    expect(() => compileTool(tool({ $schema: 'https://example.com/my-dialect', type: 'object' }))).toThrow(
      /unsupported JSON Schema dialect/,
    );
    expect(() =>
      compileTool(tool({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } })),
    ).toThrow(/points outside the schema/);
  });
});

describe('a list serializes its pages on its first request', () => {
  it('serializes none when the server is created, then each kind of page once, on the first request that asks for it', async () => {
    const tools = Array.from({ length: 3 }, (_, i) =>
      defineTool({ name: `t${i}`, inputSchema: { type: 'object' }, handler: () => text('') }),
    );
    paginated.lists.length = 0;
    const server = createServer({ info: { name: 'lazy', version: '0' }, tools });
    expect(paginated.lists).toEqual([]);
    const list = (meta?: Parameters<typeof mcpRequest>[1], caller?: object) =>
      server.handle(
        mcpRequest(
          { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
          meta,
          caller ? { caller: caller as never } : {},
        ),
      );
    const first = await list();
    expect(JSON.parse((first.result as { json: string }).json).tools).toHaveLength(3);
    expect(paginated.lists).toEqual(['tools/list']);
    expect((await list()).result).toBe(first.result); // kept
    expect(paginated.lists).toHaveLength(1);
    await list({ era: 'legacy', protocolVersion: '2025-11-25', clientCapabilities: {} });
    expect(paginated.lists).toHaveLength(2);
    await list(undefined, { subject: 'someone', scopes: [] });
    expect(paginated.lists).toHaveLength(3); // an authenticated caller's pages: private hints
    await list(undefined, { subject: 'someone else', scopes: [] });
    expect(paginated.lists).toHaveLength(3);
  });
});

describe('server/discover serializes its answer on its first request', () => {
  it('finishes no result when the server is created; each kind of discover answer once, when first asked', async () => {
    const finished = vi.spyOn(CompiledDefinition.prototype, 'finished');
    const server = createServer({
      info: { name: 'lazy', version: '0' },
      instructions: 'Say hello.',
      tools: [defineTool({ name: 't', inputSchema: { type: 'object' }, handler: () => text('') })],
    });
    expect(finished).not.toHaveBeenCalled();
    const discover = (servesLegacy: boolean) =>
      server.handle(
        mcpRequest({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }, undefined, { servesLegacy }),
      );
    const first = await discover(false);
    expect(JSON.parse((first.result as { json: string }).json)).toMatchObject({
      supportedVersions: ['2026-07-28'],
      instructions: 'Say hello.',
    });
    expect(finished).toHaveBeenCalledTimes(1);
    expect((await discover(false)).result).toBe(first.result);
    expect(finished).toHaveBeenCalledTimes(1);
    expect(JSON.parse(((await discover(true)).result as { json: string }).json).supportedVersions).toContain(
      '2025-11-25',
    );
    expect(finished).toHaveBeenCalledTimes(2);
    finished.mockRestore();
  });
});
