/**
 * Property-based fuzzing of a tool's JSON Schema check with arguments built to give it the most
 * work per byte (test/fixtures/validation.ts's schemas: closed objects at every level, arrays of
 * them, a recursive `$ref`, unions, pattern-keyed maps, `contains`, object `enum`s): the keys the
 * schemas name, and keys they do not (escapes a JSON Pointer must encode, lone surrogates), values
 * of every type, repeated by the thousand, keys by the thousand, nesting up to the body's limit of
 * 64. Properties: the check never throws; its answer is the arguments or a tool error of a handful
 * of failures; and its work, counted in reads of the schema, the arguments and the validator's
 * errors (test/support/countedWork.ts), stays within a constant per character of the arguments'
 * JSON. Fixed seed here; `npm run fuzz` runs many more (FUZZ_RUNS, FUZZ_SEED).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

vi.mock('@cfworker/json-schema', async (original) =>
  (await import('../support/countedWork')).countingValidator(await original()),
);
const { counted, countFrom, READS_FIXED, READS_PER_CHAR } = await import('../support/countedWork');
const { compileTool } = await import('../../src/mcp/tools');
const { ToolError } = await import('../../src/mcp/define');
const { demanding, sum } = await import('../fixtures/validation');

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20261202);
const MAX_MESSAGE = 100 + 5 * (2 * 200 + 4);

const tools = [sum, ...demanding].map((tool) => {
  const compiled = compileTool({ ...tool, inputSchema: counted(tool.inputSchema) } as never);
  compiled.readArguments(counted({})); // its check built before any count starts
  return compiled;
});

/** Keys the schemas name, so values reach deep into them, and keys they do not. */
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'order', 'id', 'lines', 'sku', 'qty', 'root', 'name') },
  {
    weight: 4,
    arbitrary: fc.constantFrom('children', 'values', 'n', 'pick', 'mode', 'fixed', 'tags', 'marks', 'note'),
  },
  { weight: 2, arbitrary: fc.constantFrom('when', 'k', '~', '/', '%25', 'é', '\ud800', '__proto__', 'x'.repeat(300)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
);
const scalar = fc.oneof(
  fc.constantFrom(null, true, 0, 1, -1, 1.5, 1e308, 'x', 'ABC-12', '2026-12-02', '2026-12-02T08:00:00Z'),
  fc.constantFrom('https://example.com/a', 'a@b.c', 'y'.repeat(40)),
  fc.string({ maxLength: 12 }),
  fc.double(),
);

/** A JSON value, up to `depth` levels of nesting. */
const value = (depth: number): fc.Arbitrary<unknown> =>
  depth === 0
    ? scalar
    : fc.oneof(
        { weight: 3, arbitrary: scalar },
        { weight: 2, arbitrary: fc.array(value(depth - 1), { maxLength: 4 }) },
        { weight: 2, arbitrary: fc.dictionary(key, value(depth - 1), { maxKeys: 4 }) },
      );

/** Up to `max` items drawn from a few (generating thousands of distinct ones would only slow the fuzzer). */
const many = <T>(item: fc.Arbitrary<T>, max: number) =>
  fc
    .tuple(fc.array(item, { minLength: 1, maxLength: 4 }), fc.nat(max))
    .map(([pool, n]) => Array.from({ length: n }, (_, i) => structuredClone(pool[i % pool.length]!)));
/** `n` names of lowercase letters (`a`, `b`, … `ba`, …), as the tags map allows. */
const names = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    let name = '';
    for (let rest = i; name.length === 0 || rest > 0; rest = Math.floor(rest / 26))
      name = String.fromCharCode(97 + (rest % 26)) + name;
    return name;
  });

/**
 * Arguments each fixture tool accepts, as large as a call may make them: all a validator has to
 * walk before it can fail, so each of the few faults put in afterwards costs it the most.
 */
const valid: fc.Arbitrary<Record<string, unknown>>[] = [
  fc.record({ a: fc.double({ noNaN: true, noDefaultInfinity: true }), b: fc.integer() }),
  fc.record({
    order: fc.record({
      id: fc.integer({ min: 1 }),
      lines: many(fc.record({ sku: fc.constantFrom('ABC-1', 'XYZ-42'), qty: fc.integer({ min: 1, max: 9 }) }), 60),
    }),
  }),
  fc
    .tuple(fc.integer({ min: 1, max: 60 }), many(fc.record({ name: fc.string({ maxLength: 16 }) }), 40))
    .map(([depth, leaves]) => {
      let node: object = { name: 'leaf' };
      for (let i = 0; i < depth; i++) node = { name: 'n', children: [node, ...structuredClone(leaves)] };
      return { root: node };
    }),
  fc.record(
    {
      values: many(fc.oneof(fc.double(), fc.constant('2026-12-02'), fc.record({ n: fc.integer() })), 2_000),
      pick: fc.constantFrom('ab', 'a@b.co'),
      mode: fc.constantFrom({ a: 1 }, { b: [1, 2] }, 'plain'),
      fixed: fc.constant({ k: [1, 2, 3] }),
    },
    { requiredKeys: ['values'] },
  ),
  fc.record({
    tags: fc.nat(2_000).map((n) => Object.fromEntries(names(n).map((name) => [name, `https://example.com/${name}`]))),
    marks: many(fc.constantFrom('x', 'y'), 2_000),
    note: fc.string(),
    when: fc.constant('2026-12-02T08:00:00Z'),
  }),
];

/** A value multiplied by the thousand: an array of it, or keys by the thousand holding it. */
const amplified = fc
  .tuple(value(2), fc.integer({ min: 100, max: 2_000 }), fc.boolean())
  .map(([item, n, asKeys]) =>
    asKeys
      ? Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, item]))
      : Array.from({ length: n }, () => item),
  );

/** What replaces a member of valid arguments, or is added to one of their objects. */
const fault = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 1, arbitrary: value(2) },
  { weight: 1, arbitrary: amplified },
);

/** Puts each fault at the container of `args` its index picks (modulo), at a member its key names. */
function withFaults(args: Record<string, unknown>, faults: [number, string, unknown][]) {
  const containers: Record<string, unknown>[] = [];
  const collect = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    containers.push(node as Record<string, unknown>);
    for (const member of Object.values(node)) collect(member);
  };
  collect(args);
  for (const [at, name, replacement] of faults) {
    const container = containers[at % containers.length]!;
    const members = Object.keys(container);
    const member =
      Array.isArray(container) || (members.length > 0 && at % 2 === 0) ? members[at % members.length] : name;
    if (member !== undefined) container[member] = replacement;
  }
  return args;
}

/** A fixture tool and arguments for it: its valid ones with a few faults, or anything in a few shapes. */
const calls = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .nat(valid.length - 1)
      .chain((tool) =>
        fc
          .tuple(valid[tool]!, fc.array(fc.tuple(fc.nat(), key, fault), { maxLength: 3 }))
          .map(([args, faults]) => [tool, withFaults(args, faults)] as const),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(valid.length - 1), fc.dictionary(key, fc.oneof(value(3), amplified), { maxKeys: 6 })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.nat(valid.length - 1),
      // `inner` nested up to the body's limit of 64, down one key or as the first child of each node of a tree.
      fc
        .tuple(fc.oneof(value(2), amplified), fc.integer({ min: 1, max: 60 }), key, fc.boolean())
        .map(([inner, depth, at, asTree]) => {
          let node = inner;
          for (let i = 0; i < depth; i++) node = asTree ? { name: 'n', children: [node, { name: 1 }] } : { [at]: node };
          return asTree ? { root: node } : { [at]: node };
        }),
    ),
  },
);

describe('fuzzing the JSON Schema check of a tool’s arguments', () => {
  it('never throws, answers a handful of failures, and does work linear in the arguments’ size', () => {
    fc.assert(
      fc.property(calls, ([which, sent]) => {
        const chars = JSON.stringify(sent).length;
        countFrom(READS_PER_CHAR * chars + READS_FIXED);
        const read = tools[which]!.readArguments(counted(sent as Record<string, never>));
        if (read instanceof ToolError) {
          expect(read.message.length).toBeLessThanOrEqual(MAX_MESSAGE);
          expect(read.message.split('; ').length).toBeLessThanOrEqual(5);
        } else expect(read).toBe(counted(sent));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
