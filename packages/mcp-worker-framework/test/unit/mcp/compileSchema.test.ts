/**
 * A tool's JSON Schema check (src/mcp/compileSchema.ts), through `compileTool` as the server uses
 * it: its work is linear in what arrives, counted (test/support/countedWork.ts) rather than timed;
 * its answer names a handful of failures; what it cannot bound is refused at load; and nothing a
 * value holds makes it throw.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('@cfworker/json-schema', async (original) =>
  (await import('../../support/countedWork')).countingValidator(await original()),
);
const { counted, countFrom, READS_FIXED, READS_PER_CHAR, work } = await import('../../support/countedWork');
const { compileTool } = await import('../../../src/mcp/tools');
const { defineTool, text, ToolError } = await import('../../../src/mcp/define');
const { order, sum, tags, tree, union } = await import('../../fixtures/validation');

/** The longest answer: five failures of two parts cut at 200 characters, and the prefix. */
const MAX_MESSAGE = 100 + 5 * (2 * 200 + 4);

/** The tool compiled with its schema's reads counted, its check built (first use) before counting starts. */
function countedTool(tool: { name: string; inputSchema: unknown }) {
  const compiled = compileTool({ ...tool, inputSchema: counted(tool.inputSchema) } as never);
  compiled.readArguments(counted({}));
  return compiled;
}

/** Checks `args` with their reads counted and bounded; the message, and the reads it took. */
function check(compiled: ReturnType<typeof countedTool>, args: Record<string, unknown>) {
  const chars = JSON.stringify(args).length;
  countFrom(READS_PER_CHAR * chars + READS_FIXED);
  const read = compiled.readArguments(counted(args) as never);
  expect(read).toBeInstanceOf(ToolError);
  return { message: (read as InstanceType<typeof ToolError>).message, reads: work.reads, chars };
}

const keys = (n: number, value: unknown = 1) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value]));
const items = (n: number, item: unknown) => Array.from({ length: n }, () => item);
/** `depth` nested nodes, each with `wide` children that break the schema. */
function deepTree(depth: number, wide: number) {
  let node: object = { name: 'x'.repeat(20) };
  for (let i = 0; i < depth; i++) node = { name: 'n', children: [node, ...items(wide, { name: 1 })] };
  return { root: node };
}

describe('a JSON Schema check of arguments that break it thousands of times', () => {
  it.each([
    ['keys a closed schema does not allow', sum, (n: number) => keys(n)],
    [
      'wrong items in an array of closed objects',
      order,
      (n: number) => ({ order: { id: 1, lines: items(n, { sku: 1, z: 1 }) } }),
    ],
    ['keys a nested closed object does not allow', order, (n: number) => ({ order: { id: 1, lines: [], ...keys(n) } })],
    ['items that match no branch of a union', union, (n: number) => ({ values: items(n, true) })],
    ['keys no pattern allows, in a map', tags, (n: number) => ({ tags: keys(n, 'not a uri') })],
    ['items of which none is the one `contains` asks for', tags, (n: number) => ({ marks: items(n, 'y') })],
    ['a recursive schema broken at every level', tree, (n: number) => deepTree(60, n / 60)],
  ])('%s: work linear in their size, a handful of failures named', (_, tool, args) => {
    const compiled = countedTool(tool);
    const small = check(compiled, args(2_000));
    const large = check(compiled, args(16_000));
    // Eight times the arguments: at most about eight times the work (a quadratic check does 64 times).
    expect(large.reads).toBeLessThan(10 * small.reads);
    for (const { message } of [small, large]) {
      expect(message).toMatch(new RegExp(`^Invalid arguments for tool ${tool.name}: /`));
      expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE);
      expect(message.split('; ').length).toBeLessThanOrEqual(5);
    }
  });

  it('names every failure of a small value, each where it is', () => {
    const { message } = check(countedTool(order), {
      order: {
        id: 0,
        lines: [
          { sku: 'ABC-1', qty: 0 },
          { sku: 'nope', qty: 1 },
        ],
        extra: true,
      },
    });
    for (const at of ['/order/id', '/order/lines/0/qty', '/order/lines/1/sku', '/order/extra'])
      expect(message).toContain(`${at}: `);
  });

  it('cuts a pointer or a message that a long property name makes long', () => {
    const { message } = check(countedTool(order), { order: { id: 1, lines: [], ['k'.repeat(100_000)]: 1 } });
    expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE);
    expect(message).toMatch(/^Invalid arguments for tool order: \/order\/kkkk+…: /);
  });

  it('answers a property name that is not well-formed Unicode as invalid arguments, without throwing', () => {
    // The validator writes a property name into a URI; `encodeURI` throws on a lone surrogate.
    for (const [tool, args] of [
      [sum, { a: 1, b: 2, '\ud800': 1 }],
      [tags, { tags: { '\udfff': 'https://example.com' } }],
    ] as const)
      expect(compileTool(tool).readArguments(args)).toEqual(
        new ToolError(
          `Invalid arguments for tool ${tool.name}: /: holds a property name that is not well-formed Unicode (a lone surrogate)`,
        ),
      );
  });

  it('answers more failures than the stack takes as invalid arguments, without throwing', () => {
    // The validator spreads a subschema's errors into one call's arguments: 100,000 keys are too many.
    expect(compileTool(order).readArguments({ order: { id: 1, lines: [], ...keys(100_000) } })).toEqual(
      new ToolError('Invalid arguments for tool order: /: breaks the schema in more places than can be checked'),
    );
  });

  it('bounds the check of structuredContent against an outputSchema the same way', () => {
    const compiled = compileTool(
      defineTool({
        name: 'listing',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { rows: { type: 'array', items: { type: 'integer' } } } },
        handler: () => ({ ...text(''), structuredContent: { rows: [] } }),
      }),
    );
    const why = compiled.checkOutput({ rows: items(100_000, 'x') }) as string;
    expect(why).toBe('/rows/0: Instance type "string" is invalid. Expected "integer".');
  });
});

describe('a JSON Schema the check cannot bound', () => {
  const tool = (inputSchema: Record<string, unknown>) =>
    defineTool({ name: 't', inputSchema, handler: () => text('') });

  it.each([
    [
      'uniqueItems (every pair of items compared)',
      { type: 'object', properties: { ids: { type: 'array', uniqueItems: true } } },
      /tool "t" inputSchema: uniqueItems at \/properties\/ids is refused: .* square .* check uniqueness in the handler/,
    ],
    [
      'format "url" (a pattern that backtracks exponentially)',
      { type: 'object', $defs: { link: { type: 'string', format: 'url' } } },
      /tool "t" inputSchema: format "url" at \/\$defs\/link is refused: .*backtracks exponentially.* use "uri"/,
    ],
    [
      'either, deep in a union',
      { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { items: { uniqueItems: true } }] } } },
      /uniqueItems at \/properties\/a\/anyOf\/1\/items is refused/,
    ],
  ])('is refused at load: %s', (_, schema, message) => {
    expect(() => compileTool(tool(schema))).toThrow(message);
  });

  it('is only a keyword where a schema is: a property or a $defs entry so named, or an example, is not', () => {
    const compiled = compileTool(
      tool({
        type: 'object',
        properties: { uniqueItems: true, format: { type: 'string', examples: [{ format: 'url', uniqueItems: true }] } },
        $defs: { uniqueItems: { const: { uniqueItems: true } } },
      }),
    );
    expect(compiled.readArguments({ uniqueItems: [1, 1], format: 'x' })).toEqual({ uniqueItems: [1, 1], format: 'x' });
  });

  it('refuses an outputSchema the same way', () => {
    expect(() =>
      compileTool(
        defineTool({
          name: 'out',
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', properties: { site: { type: 'string', format: 'url' } } },
          handler: () => ({ ...text(''), structuredContent: {} }),
        }),
      ),
    ).toThrow(/tool "out" outputSchema: format "url" at \/properties\/site is refused/);
  });
});
