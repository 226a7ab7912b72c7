/**
 * What a cold start does not pay for (docs/performance.md, "Module load"): a tool's validators
 * are built on its first call that needs them, once per isolate, never at module load.
 */
import { describe, expect, it, vi } from 'vitest';

const built = vi.hoisted(() => ({ validators: 0 }));
vi.mock('@cfworker/json-schema', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@cfworker/json-schema')>();
  class Counted extends actual.Validator {
    constructor(...args: ConstructorParameters<typeof actual.Validator>) {
      super(...args);
      built.validators++;
    }
  }
  return { ...actual, Validator: Counted };
});

const { defineTool, text } = await import('../../src/mcp/define');
const { compileTool } = await import('../../src/mcp/tools');

describe('a tool compiled at load builds its validators on first use', () => {
  it('builds none when compiled, the input one on the first check of arguments, the output one on the first check of a result, each once', () => {
    built.validators = 0;
    const compiled = compileTool(
      defineTool({
        name: 'sum',
        inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
        handler: () => text(''),
      }),
    );
    expect(built.validators).toBe(0);
    expect(compiled.checkArguments({ a: 1 })).toBeUndefined();
    expect(built.validators).toBe(1);
    expect(compiled.checkArguments({})).toMatch(/a/);
    expect(compiled.checkArguments({ a: 'x' })).toMatch(/\/a/);
    expect(built.validators).toBe(1);
    expect(compiled.checkOutput({ sum: 2 })).toBeUndefined();
    expect(compiled.checkOutput({})).toMatch(/sum/);
    expect(built.validators).toBe(2);
  });

  it('still refuses at load what an author got wrong: a dialect it cannot check, a network $ref', () => {
    const tool = (inputSchema: Record<string, unknown>) => defineTool({ name: 't', inputSchema, handler: () => text('') });
    expect(() => compileTool(tool({ $schema: 'https://example.com/my-dialect', type: 'object' }))).toThrow(/unsupported JSON Schema dialect/);
    expect(() => compileTool(tool({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }))).toThrow(/points outside the schema/);
  });
});
