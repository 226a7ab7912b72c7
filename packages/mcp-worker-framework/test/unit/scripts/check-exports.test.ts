/** scripts/check-exports.mjs: an export of src/ that nothing imports fails `npm run check`, naming it. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = new URL('../../../scripts/check-exports.mjs', import.meta.url).pathname;
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A package of `files` (path → text) whose one public entry is its `lib` folder's index; the script run on it. */
function check(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'check-exports-'));
  made.push(dir);
  const pkg = join(dir, 'packages/lib');
  const exports = { '.': { types: './dist/lib/index.d.ts', default: './dist/lib/index.js' } };
  for (const [path, text] of Object.entries({ 'package.json': JSON.stringify({ name: 'lib', exports }), ...files })) {
    mkdirSync(join(pkg, path, '..'), { recursive: true });
    writeFileSync(join(pkg, path), text);
  }
  const run = spawnSync(process.execPath, [script, '--package', pkg], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('check-exports', () => {
  it('names an export nothing imports, and passes once every export is imported or public', () => {
    const files = {
      'src/lib/index.ts': "export { used } from '../parts/parts';\nexport const publicOne = 1;\n",
      'src/parts/parts.ts':
        'export const used = 1;\nexport const unused = 2;\nexport type Shape = { a: number };\nexport interface Fields { b?: string }\n',
      'src/parts/reader.ts': "import type { Shape } from './parts';\nexport const read = (s: Shape) => s.a;\n",
      'test/reader.test.ts': "import { read } from '../src/parts/reader';\nread({ a: 1 });\n",
      'src/parts/merge.ts': "declare module './parts' {\n  interface Fields { c?: string }\n}\nexport {};\n",
    };
    const failing = check(files);
    expect(failing.status).toBe(1);
    expect(failing.out).toContain('src/parts/parts.ts: unused');
    expect(failing.out).not.toMatch(/: (used|Shape|Fields|read|publicOne)\b/);
    const passing = check({
      ...files,
      'src/parts/parts.ts': files['src/parts/parts.ts'].replace('export const unused', 'const unused'),
    });
    expect(passing.out).toContain('every export of src/ is imported');
    expect(passing.status).toBe(0);
  });
});
