/**
 * `node bench/schema-cost.mjs`: what a schema library costs a Worker. The default Worker (the
 * template's example server, src/server.ts at the repository's root, wired as its src/index.ts
 * wires it, through the package's name as a fork imports it) plus one tool, `weather(city, days, units)`,
 * written with a plain JSON Schema (the baseline: types only, zero bytes), zod, valibot with
 * @valibot/to-json-schema, or ArkType (zod/mini gives no `~standard.jsonSchema`, so it cannot be
 * one); each bundled with esbuild (minified, as wrangler.toml deploys) and gzipped. The libraries are devDependencies: this is what a fork that picks one pays.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'bench', '.out', 'schema-cost');

const handler = `handler: ({ city, days }) => text(\`\${city}: \${days ?? 3} days\`)`;
const TOOLS = {
  'JSON Schema': [
    '',
    `{ type: 'object', properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, maximum: 7 }, units: { enum: ['metric', 'imperial'] } }, required: ['city'] }`,
  ],
  zod: [
    `import * as z from 'zod';`,
    `z.object({ city: z.string().min(1), days: z.number().int().min(1).max(7).optional(), units: z.enum(['metric', 'imperial']).optional() })`,
  ],
  'valibot + @valibot/to-json-schema': [
    `import * as v from 'valibot';\nimport { toStandardJsonSchema } from '@valibot/to-json-schema';`,
    `toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(1)), days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7))), units: v.optional(v.picklist(['metric', 'imperial'])) }))`,
  ],
  ArkType: [
    `import { type } from 'arktype';`,
    `type({ city: 'string > 0', 'days?': '1 <= number.integer <= 7', 'units?': "'metric' | 'imperial'" })`,
  ],
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const sizes = {};
for (const [name, [imports, schema]] of Object.entries(TOOLS)) {
  const entry = join(out, `${name.replace(/\W+/g, '-')}.ts`);
  writeFileSync(
    entry,
    `${imports}
import { defineTool, text } from 'mcp-worker-framework';
import { apps } from 'mcp-worker-framework/apps';
import { access, bearer, introspect, jwt } from 'mcp-worker-framework/auth';
import { createWorker } from 'mcp-worker-framework/worker';
import { serverDefinition } from '../../../../../src/server';
const weather = defineTool({ name: 'weather', description: 'Weather for a city.', inputSchema: ${schema}, ${handler} });
const worker = createWorker({ ...serverDefinition, tools: [...(serverDefinition.tools ?? []), weather] }, { auth: [bearer, jwt, access, introspect], extensions: [apps()] });
export default { fetch: worker.fetch };
`,
  );
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2024',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    loader: { '.html': 'text' },
    write: false,
    logLevel: 'silent',
  });
  sizes[name] = gzipSync(result.outputFiles[0].contents, { level: 9 }).byteLength;
}
const base = sizes['JSON Schema'];
console.log('| the weather tool written with | Worker gzip bytes | cost |\n|---|---|---|');
for (const [name, size] of Object.entries(sizes))
  console.log(
    `| ${name} | ${size} | ${name === 'JSON Schema' ? 'baseline (types only: 0 B)' : `+${((size - base) / 1024).toFixed(1)} KB`} |`,
  );
