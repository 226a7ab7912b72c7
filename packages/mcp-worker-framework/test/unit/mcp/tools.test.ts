import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { defineTool, text, ToolError } from '../../../src/mcp/define';
import { compileTool } from '../../../src/mcp/tools';
import { runTool } from '../../../src/mcp';
import { mcpRequest } from '../../support/request';

const tool = (inputSchema: Record<string, unknown>) => defineTool({ name: 't', inputSchema, handler: () => text('') });

describe('compileTool', () => {
  it('lists a tool from an allow-list of the spec Tool keys: a field of any extension, known or not, never leaks', () => {
    // The spec's `Tool` (2026-07-28 schema.json), written out: the exact keys a listed tool may have.
    const specKeys = ['_meta', 'annotations', 'description', 'icons', 'inputSchema', 'name', 'outputSchema', 'title'];
    const everything = {
      name: 'all',
      title: 'All',
      description: 'd',
      icons: [{ src: 'https://example.test/i.png' }],
      annotations: { readOnlyHint: true },
      _meta: { 'example.test/k': 1 },
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
      handler: () => text(''),
      requiredScopes: ['a'],
      timeoutMs: 5,
      task: 'optional',
      immediateMs: 1,
      ui: { resourceUri: 'ui://v' },
      someFutureExtension: { secret: true },
    };
    const listed = compileTool(everything as never).listed;
    expect(Object.keys(listed).sort()).toEqual(specKeys);
  });

  it('finds x-mcp-header parameters along properties chains, nested ones included', () => {
    const compiled = compileTool(
      tool({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          scope: { type: 'object', properties: { tenant: { type: 'integer', 'x-mcp-header': 'Tenant' } } },
          note: { type: 'string', default: { 'x-mcp-header': 'NotAnAnnotation' } },
        },
      }),
    );
    expect(compiled.headerParams).toEqual([
      { header: 'Region', path: ['region'], type: 'string' },
      { header: 'Tenant', path: ['scope', 'tenant'], type: 'integer' },
    ]);
  });

  it.each([
    ['an empty name', { a: { type: 'string', 'x-mcp-header': '' } }, /HTTP token/],
    ['a name with a space', { a: { type: 'string', 'x-mcp-header': 'Bad Name' } }, /HTTP token/],
    ['a number parameter', { a: { type: 'number', 'x-mcp-header': 'A' } }, /string, integer or boolean/],
    ['an object parameter', { a: { type: 'object', 'x-mcp-header': 'A' } }, /string, integer or boolean/],
    [
      'a duplicate name in another case',
      { a: { type: 'string', 'x-mcp-header': 'Id' }, b: { type: 'string', 'x-mcp-header': 'ID' } },
      /used twice/,
    ],
    [
      'a parameter inside items',
      { a: { type: 'array', items: { type: 'object', properties: { b: { type: 'string', 'x-mcp-header': 'B' } } } } },
      /reached only through "properties"/,
    ],
    [
      'a parameter inside anyOf',
      { a: { anyOf: [{ type: 'string', 'x-mcp-header': 'A' }] } },
      /reached only through "properties"/,
    ],
  ])('refuses %s at load time', (_, properties, message) => {
    expect(() => compileTool(tool({ type: 'object', properties }))).toThrow(message);
  });

  it('refuses an inputSchema that is not an object schema', () => {
    expect(() => compileTool(tool({ type: 'string' }))).toThrow(/"type": "object"/);
  });

  it('validates arguments with the declared dialect and refuses unknown dialects', () => {
    const draft7 = compileTool(
      tool({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { n: { type: 'integer' } },
      }),
    );
    const args = { n: 1 };
    expect(draft7.readArguments(args)).toBe(args);
    expect(draft7.readArguments({ n: 'x' })).toEqual(
      expect.objectContaining({ message: expect.stringMatching(/\/n/) }),
    );
    expect(() => compileTool(tool({ $schema: 'https://example.com/my-dialect', type: 'object' }))).toThrow(
      /unsupported JSON Schema dialect/,
    );
  });

  it('keeps 2020-12 keywords working by default', () => {
    const compiled = compileTool(
      tool({
        type: 'object',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      }),
    );
    expect(compiled.readArguments({ pair: ['a', 1] })).not.toBeInstanceOf(ToolError);
    expect(compiled.readArguments({ pair: ['a', 1, 2] })).toBeInstanceOf(ToolError);
  });
});

describe('compileTool with a Standard Schema', () => {
  const standardTool = (inputSchema: unknown) =>
    defineTool({ name: 'std', inputSchema: inputSchema as z.ZodObject, handler: () => text('') });

  it('fails at load, naming the tool, when the schema cannot be said in JSON Schema', () => {
    expect(() => compileTool(standardTool(z.object({ when: z.date() })))).toThrow(
      /^tool "std" inputSchema: no JSON Schema: /,
    );
  });

  it('fails at load, naming the tool, when the schema gives no JSON Schema at all (valibot unwrapped)', () => {
    expect(() => compileTool(standardTool(v.object({ city: v.string() })))).toThrow(
      /^tool "std" inputSchema: no JSON Schema: /,
    );
  });

  it('refuses a schema that is not an object schema, as for a JSON Schema', () => {
    expect(() => compileTool(standardTool(z.string()))).toThrow(/"type": "object"/);
  });

  it('reads arguments with the schema: its output when valid, a ToolError naming the path when not', () => {
    const compiled = compileTool(
      standardTool(z.object({ n: z.coerce.number(), inner: z.object({ flag: z.boolean() }).optional() })),
    );
    expect(compiled.readArguments({ n: '4' })).toEqual({ n: 4 });
    expect(compiled.readArguments({ n: 1, inner: { flag: 'yes' } })).toEqual(
      new ToolError('Invalid arguments for tool std: /inner/flag: Invalid input: expected boolean, received string'),
    );
  });

  it('names the first five failures, each cut short, and how many more, however many there are', () => {
    const compiled = compileTool(
      standardTool(z.object({ counts: z.array(z.number()), [`k${'e'.repeat(500)}`]: z.string() })),
    );
    const read = compiled.readArguments({ counts: Array.from({ length: 10_000 }, () => 'one') }) as ToolError;
    const at = (i: number) => `/counts/${i}: Invalid input: expected number, received string`;
    expect(read.message).toBe(`Invalid arguments for tool std: ${[0, 1, 2, 3, 4].map(at).join('; ')} (and 9996 more)`);
    const long = compiled.readArguments({ counts: [] }) as ToolError;
    expect(long.message).toMatch(
      /^Invalid arguments for tool std: \/keee+…: Invalid input: expected string, received undefined$/,
    );
    expect(long.message.length).toBeLessThan(300);
  });
});

describe('compileTool with a Standard Schema that throws', () => {
  /** A zod object schema whose validate throws as zod's does when the stack runs out (workerd, 150,000 wrong items). */
  const throwing = (how: 'at once' | 'in its promise') => {
    const schema = z.object({ n: z.number() });
    const overflow = () => new RangeError('Maximum call stack size exceeded');
    const standard = {
      ...schema['~standard'],
      validate: () => {
        if (how === 'at once') throw overflow();
        return Promise.reject(overflow());
      },
    };
    return Object.assign(Object.create(schema) as typeof schema, { '~standard': standard });
  };
  const withSchemas = (inputSchema: z.ZodObject, outputSchema?: z.ZodObject) =>
    compileTool(defineTool({ name: 'brittle', inputSchema, outputSchema, handler: () => text('') } as never));

  it.each(['at once', 'in its promise'] as const)(
    'reads arguments a validator throws on (%s) as invalid arguments naming the tool, and logs what it threw',
    async (how) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      const read = await withSchemas(throwing(how)).readArguments({ n: 1 });
      expect(read).toBeInstanceOf(ToolError);
      expect((read as ToolError).message).toMatch(/^Invalid arguments for tool brittle: its inputSchema failed/);
      expect(logged).toHaveBeenCalledWith('tool "brittle" inputSchema threw while validating', expect.any(RangeError));
      logged.mockRestore();
    },
  );

  it('says why when an outputSchema throws, for the result to be refused as the server’s fault', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await withSchemas(z.object({}), throwing('in its promise')).checkOutput({ n: 1 })).toBe('it threw');
    expect(withSchemas(z.object({}), throwing('at once')).checkOutput({ n: 1 })).toBe('it threw');
    logged.mockRestore();
  });
});

describe('runTool, the public way an extension runs a tool', () => {
  const run = { timeoutMs: undefined, abort: () => {}, serialize: JSON.stringify, tooLarge: () => undefined };
  const input = { responses: {}, state: undefined };
  const request = mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'twice' } });
  const twice = compileTool(
    defineTool({
      name: 'twice',
      inputSchema: z.object({ n: z.string().transform(Number) }),
      task: 'optional',
      handler: ({ n }, context) => text(`${n * 2} in ${context.task?.id ?? 'no task'}`),
    }),
  );

  it('reads the arguments as sent the way the handler takes them, and gives the handler the fields the extension adds', async () => {
    const ran = await runTool(twice, { n: '21' }, request, input, run, { task: { id: 'task-1', status: () => {} } });
    expect(ran).toMatchObject({ result: { content: [{ type: 'text', text: '42 in task-1' }] } });
  });

  it('answers arguments that break the schema with a tool error for the model, the handler never run', async () => {
    const ran = await runTool(twice, { n: 21 }, request, input, run);
    expect(ran).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringMatching(/^Invalid arguments for tool twice: \/n: /) }] },
    });
  });
});
