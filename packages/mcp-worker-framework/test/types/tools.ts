/** A tool's `args` and `structuredContent` come from its JSON Schema literals, with no `as const`. */
import { defineTool, text, type FromSchema } from '../../src/mcp';
import { expectType, type ArgsOf, type Equal } from './expect';

export const sum = defineTool({
  name: 'sum',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  handler: ({ a, b }) => ({ content: [], structuredContent: { sum: a + b } }),
});
expectType<Equal<ArgsOf<typeof sum>, { a: number; b: number }>>();

defineTool({
  name: 'wrong_argument_type',
  inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
  handler: ({ a }) => {
    // @ts-expect-error a is a number, not a string
    const wrong: string = a;
    return text(wrong);
  },
});

defineTool({
  name: 'optional_is_optional',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'integer', default: 3 } },
    required: ['a'],
  },
  handler: ({ a, b }) => {
    // @ts-expect-error b is not in required (a default does not make it so): it may be missing
    const n: number = b;
    return text(`${a}${n}`);
  },
});

defineTool({
  name: 'output_mismatch',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  // @ts-expect-error structuredContent.sum must be a number
  handler: () => ({ content: [], structuredContent: { sum: 'five' } }),
});

defineTool({
  name: 'output_missing',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  // @ts-expect-error with an outputSchema, a result that is not a tool error carries structuredContent
  handler: () => text('no structured content'),
});

defineTool({
  name: 'tool_error_needs_no_structure',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  handler: () => ({ ...text('failed'), isError: true }),
});

// The explicit form of before fails, and its message says what to write instead.
// @ts-expect-error defineTool takes no type argument now
defineTool<{ name: string }>({ name: 'old_form', inputSchema: { type: 'object' }, handler: () => text('') });

/** Every modelled keyword at once. */
const everything = {
  type: 'object',
  properties: {
    text: { type: 'string', minLength: 1, format: 'email' },
    count: { type: 'integer' },
    maybe: { type: ['string', 'null'] },
    colour: { enum: ['red', 'green'] },
    kind: { const: 'fixed' },
    tags: { type: 'array', items: { type: 'string' } },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
    either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    one: { oneOf: [{ type: 'boolean' }, { type: 'null' }] },
    both: {
      allOf: [
        { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        { type: 'object', properties: { y: { type: 'string' } }, required: ['y'] },
      ],
    },
    exact: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    map: { type: 'object', additionalProperties: { type: 'number' } },
    ref: { $ref: '#/$defs/thing' },
    anything: {},
  },
  required: [
    'text',
    'count',
    'maybe',
    'colour',
    'kind',
    'tags',
    'pair',
    'either',
    'one',
    'both',
    'exact',
    'map',
    'ref',
    'anything',
  ],
  additionalProperties: false,
} as const;
type Everything = FromSchema<typeof everything>;
expectType<
  Equal<
    Everything,
    {
      text: string;
      count: number;
      maybe: string | null;
      colour: 'red' | 'green';
      kind: 'fixed';
      tags: string[];
      pair: [(string | undefined)?, (number | undefined)?];
      either: string | number;
      one: boolean | null;
      both: { [key: string]: unknown; x: number; y: string };
      exact: { id: string };
      map: { [key: string]: number };
      ref: unknown;
      anything: unknown;
    }
  >
>();

// Without additionalProperties: false, other keys may come, typed unknown.
expectType<
  Equal<FromSchema<{ type: 'object'; properties: { a: { type: 'string' } } }>, { [key: string]: unknown; a?: string }>
>();

// A schema whose literals were widened (declared apart, without `as const`) is unknown where it lost them, never wrong.
const widened = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
const fromWidened = defineTool({ name: 'widened', inputSchema: widened, handler: () => text('') });
expectType<Equal<ArgsOf<typeof fromWidened>, { [key: string]: unknown; n?: unknown }>>();

// Deep nesting gives unknown past the depth limit, not "excessively deep" (TS2589).
type Nest<D extends unknown[]> = D['length'] extends 40
  ? { type: 'string' }
  : { type: 'object'; properties: { next: Nest<[...D, 0]> }; required: ['next'] };
type Deep = FromSchema<Nest<[]>>;
expectType<Equal<Deep['next']['next']['next']['next']['next']['next']['next']['next']['next']['next'], unknown>>();
expectType<
  Equal<Deep['next']['next']['next'], { [key: string]: unknown; next: unknown }> extends true ? false : true
>();

// The extensions bring their own tool fields (declaration merging, src/tasks/toolFields.ts and
// src/apps/toolFields.ts): typed where they are declared, and the schemas still type the handler.
export const later = defineTool({
  name: 'later',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
  task: 'optional',
  immediateMs: 10,
  ui: { resourceUri: 'ui://later/view', visibility: ['app'] },
  handler: ({ n }) => text(`${n + 1}`),
});
expectType<Equal<ArgsOf<typeof later>, { n: number }>>();

defineTool({
  name: 'wrong_task_support',
  inputSchema: { type: 'object' },
  // @ts-expect-error a tool runs as a task 'optional' or 'required', as the Tasks extension declares
  task: 'sometimes',
  handler: () => text(''),
});

defineTool({
  name: 'unknown_field',
  inputSchema: { type: 'object' },
  // @ts-expect-error a field no extension declares is refused
  neverDeclared: true,
  handler: () => text(''),
});

// A `type` that names no JSON type fails at the tool, naming it ('"integr" is no JSON Schema type: use one
// of …'), with the handler still typed: no second error (TS18046, `a` unknown) far from the mistake.
// @ts-expect-error "integr" is no JSON Schema type
defineTool({
  name: 'misspelt_type',
  inputSchema: { type: 'object', properties: { a: { type: 'integr' }, b: { type: 'number' } }, required: ['a', 'b'] },
  handler: ({ a, b }) => text(String(a + b)),
});
// @ts-expect-error so is one in a list of types, in an output schema
defineTool({
  name: 'misspelt_output_type',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: ['strin', 'null'] } } },
  handler: () => ({ content: [], structuredContent: {} }),
});
