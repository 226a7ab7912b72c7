/** scripts/check-docs.mjs: the docs' TypeScript blocks compiled in a copy of the template. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDocs, tsBlocks } from '../../../scripts/check-docs.mjs';

const template = join(import.meta.dirname, '../../../../..');
const root = mkdtempSync(join(tmpdir(), 'check-docs-'));
for (const file of [
  'package.json',
  'tsconfig.json',
  'biome.jsonc',
  'worker-configuration.d.ts',
  'skills/index.ts',
  'test/tsconfig.json',
]) {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  cpSync(join(template, file), join(root, file));
}
cpSync(join(template, 'src'), join(root, 'src'), { recursive: true });
symlinkSync(join(template, 'node_modules'), join(root, 'node_modules'), 'dir');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fence = '```';
const readme = (text: string) => {
  writeFileSync(join(root, 'README.md'), text);
  return checkDocs({ root, files: [join(root, 'README.md')] });
};

describe('tsBlocks', () => {
  it('reads each ts block with its fence line and info, and no block of another language', () => {
    const text = `# x\n\n${fence}sh\nnpm test\n${fence}\n\n${fence}ts nocheck env=A,B\nconst a = 1;\n${fence}\n`;
    expect(tsBlocks('README.md', text)).toEqual([
      { doc: 'README.md', line: 7, info: ['nocheck', 'env=A,B'], code: 'const a = 1;\n' },
    ]);
  });
  it('reads a block indented in a list item, its indentation taken off (docs/events.md numbers its steps)', () => {
    const text = `1. A step:\n\n   ${fence}ts\n   const a = 1;\n     const b = 2;\n   ${fence}\n\n2. Next.\n`;
    expect(tsBlocks('README.md', text)).toEqual([
      { doc: 'README.md', line: 3, info: [], code: 'const a = 1;\n  const b = 2;\n' },
    ]);
  });
});

describe('checkDocs', () => {
  it('names the doc and line of a block that does not compile, pasted into src/index.ts with its imports', () => {
    const { checked, errors } = readme(
      `# x\n\n${fence}ts\nconst worker = createWorker(serverDefinition, { extensions: [apps()] });\nconst n: number = worker;\n${fence}\n`,
    );
    expect(checked).toBe(1);
    expect(errors).toEqual([expect.stringMatching(/^README\.md:5: error TS2322/)]);
  });

  it('compiles a block that names its file there, the tests with their own tsconfig', () => {
    const tool = `// src/tools/hello.ts\nimport { defineTool, text } from 'mcp-worker-framework';\n\nexport const hello = defineTool({ name: 'hello', inputSchema: { type: 'object' }, handler: () => text('hi') });\n`;
    const test = `// test/spec.test.ts\nimport { expect, it } from 'vitest';\nimport { hello } from '../src/tools/hello';\n\nconst n: number = hello.name;\nit('is named', () => expect(n).toBe(1));\n`;
    expect(readme(`${fence}ts\n${tool}${fence}\n\n${fence}ts\n${test}${fence}\n`).errors).toEqual([
      expect.stringMatching(/^README\.md:13: error TS2322/),
    ]);
  });

  it("names a whole file that the fork's biome would refuse as pasted", () => {
    const tool = `// src/tools/loose.ts\nimport { defineTool, text } from 'mcp-worker-framework';\n\nexport const loose = defineTool({ name: 'loose', inputSchema: { type: 'object' },   handler: () => text('hi') });\n`;
    expect(readme(`# x\n\n${fence}ts\n${tool}${fence}\n`).errors).toEqual([
      expect.stringMatching(/^README\.md:3: biome format/),
    ]);
  });

  it('leaves out a block marked nocheck, and types the vars a block declares with env=', () => {
    const { checked, skipped, errors } = readme(
      `${fence}ts nocheck\nhandler: () => text('x'),\n${fence}\n\n${fence}ts env=SHARED_SECRET\nexport const secret = (env: Env): string => env.SHARED_SECRET;\n${fence}\n`,
    );
    expect({ checked, skipped: skipped.length, errors }).toEqual({ checked: 1, skipped: 1, errors: [] });
  });
});
