/**
 * `node bench/compile-time.mjs [runs]`: what typing tools from their schemas costs the compiler.
 * Writes a fixture server of 50 realistic tools (nested objects, enums, arrays, unions, an
 * outputSchema each) twice: with `defineTool` inferring from the schemas, and with the same
 * tools through an identity function whose handler takes `any` (no inference). Runs `tsc -p` on
 * each in turn, `runs` times (default 5), and prints the medians of the wall time and of tsc's own
 * check time. A measurement for the notes, not a test: the machine may be shared.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'bench', '.out', 'compile-time');
// The compiler the package's check runs, wherever the install put it (the workspace hoists it).
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const runs = Number(process.argv[2] ?? 5);
const TOOLS = 50;

const tool = (i) => `export const tool${i} = defineTool({
  name: 'search_${i}',
  description: 'Searches collection ${i}.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'What to look for' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      sort: { enum: ['relevance_${i}', 'newest', 'oldest'] },
      filters: {
        type: 'object',
        properties: {
          status: { type: 'array', items: { enum: ['open', 'closed', 'draft_${i}'] }, uniqueItems: true },
          since: { type: 'string', format: 'date-time' },
          owner: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
        },
        additionalProperties: false,
      },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
      target: {
        oneOf: [
          { type: 'object', properties: { kind: { const: 'repo' }, name${i}: { type: 'string' } }, required: ['kind', 'name${i}'] },
          { type: 'object', properties: { kind: { const: 'org' }, id: { type: 'integer' } }, required: ['kind', 'id'] },
        ],
      },
      range: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
    },
    required: ['query', 'target'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, score${i}: { type: 'number' }, kind: { enum: ['a', 'b'] } }, required: ['id', 'score${i}'] } },
      total: { type: 'integer' },
    },
    required: ['items', 'total'],
  },
  handler: ({ query, limit = 10, sort, filters, tags, target }) => {
    const who = target.kind === 'repo' ? 'repo' : String(target.id);
    const status = filters?.status?.join(',') ?? 'any';
    const items = (tags ?? [query]).slice(0, limit).map((id: string) => ({ id: \`\${id}\${who}\${status}\${sort ?? ''}\`, score${i}: id.length }));
    return { content: [{ type: 'text', text: JSON.stringify(items) }], structuredContent: { items, total: items.length } };
  },
});
`;

const UNTYPED = `/** The same tools with no inference: an identity function whose handler takes any. */
import type { CallToolResult } from '../../../../src/mcp';
const defineTool = <T extends { name: string; inputSchema: object; outputSchema?: object; handler(args: any): CallToolResult }>(tool: T) => tool;
`;
const INFERRED = `import { defineTool } from '../../../../src/mcp';\n`;

rmSync(out, { recursive: true, force: true });
for (const [variant, header] of [
  ['inferred', INFERRED],
  ['untyped', UNTYPED],
]) {
  const dir = join(out, variant);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tools.ts'), `${header}\n${Array.from({ length: TOOLS }, (_, i) => tool(i)).join('\n')}`);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../../../tsconfig.json',
      compilerOptions: { noUnusedLocals: false },
      include: ['tools.ts', '../../../../src/env.ts'],
    }),
  );
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const times = { inferred: { wall: [], check: [] }, untyped: { wall: [], check: [] } };
for (let run = 0; run < runs; run++) {
  for (const variant of ['inferred', 'untyped']) {
    const started = process.hrtime.bigint();
    const report = execFileSync(tsc, ['-p', join(out, variant), '--extendedDiagnostics'], { encoding: 'utf8' });
    times[variant].wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    times[variant].check.push(Number(/Check time:\s+([\d.]+)s/.exec(report)?.[1] ?? NaN) * 1000);
  }
}
for (const variant of ['inferred', 'untyped']) {
  console.log(
    `${variant}: tsc -p wall ${median(times[variant].wall).toFixed(0)} ms, check ${median(times[variant].check).toFixed(0)} ms (median of ${runs}; walls ${times[variant].wall.map((t) => t.toFixed(0)).join(' ')})`,
  );
}
