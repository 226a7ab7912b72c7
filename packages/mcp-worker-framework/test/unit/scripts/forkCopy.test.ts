/**
 * The fork and packed checks (scripts/fork-check.mjs, scripts/packed-check.mjs) follow the README's
 * "Make it yours" as written: what its "Delete the examples" names is what they delete
 * (scripts/forkCopy.mjs), so a README that drifts from the template fails them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the scripts
import { addImport, copyTemplate, examplesOf } from '../../../scripts/forkCopy.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'fork-copy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A project folder holding `files` (path → text). */
function project(name: string, files: Record<string, string>) {
  const dir = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const readme = (step: string) =>
  `# A server\n\n## Make it yours\n\n1. **Names.** \`name\` in \`package.json\`.\n${step}3. **Next.** \`src/kept.ts\`.\n\n## Add a tool\n`;

describe('examplesOf: what "Delete the examples" names', () => {
  it('names the folders and files of the step that exist, not the files it edits, nor any other step’s', () => {
    const dir = project('plain', {
      'README.md': readme(
        '2. **Delete the examples**: `src/tools/`, `views/clock/`, `gone/`, their lines in `src/server.ts`, and\n   `GITHUB_API_URL` in `wrangler.toml`.\n',
      ),
      'src/tools/add.ts': '',
      'views/clock/index.html': '',
      'src/server.ts': '',
      'src/kept.ts': '',
      'wrangler.toml': '',
    });
    expect(examplesOf(dir)).toEqual(['src/tools/', 'views/clock/']);
  });

  it('of "all of `test/` but `a` and `b`", names every other entry of the folder', () => {
    const dir = project('but', {
      'README.md': readme(
        '2. **Delete the examples**: `src/tools/`, their tests: all of `test/` but `test/spec.test.ts` and\n   `test/tsconfig.json` (with `test/worker.ts`, the Worker that runs them).\n',
      ),
      'src/tools/add.ts': '',
      'test/spec.test.ts': '',
      'test/tsconfig.json': '',
      'test/add.test.ts': '',
      'test/worker.ts': '',
    });
    expect(examplesOf(dir).sort()).toEqual(['src/tools/', 'test/add.test.ts', 'test/worker.ts']);
  });

  it('reads "every file of `test/` but `a`" the same way', () => {
    const dir = project('every', {
      'README.md': readme(
        '2. **Delete the examples**: `src/tools/`, their tests (every file of `test/` but `test/spec.test.ts`).\n',
      ),
      'src/tools/add.ts': '',
      'test/spec.test.ts': '',
      'test/tsconfig.json': '',
      'test/add.test.ts': '',
    });
    expect(examplesOf(dir).sort()).toEqual(['src/tools/', 'test/add.test.ts', 'test/tsconfig.json']);
  });

  it('fails, naming what the step says, when it names no example that is there', () => {
    const dir = project('drifted', {
      'README.md': readme('2. **Delete the examples**: `examples/`.\n'),
      'src/tools/add.ts': '',
    });
    expect(() => examplesOf(dir)).toThrow(/names no example that is there \(it names examples\/\)/);
  });
});

describe('copyTemplate: the template without the workspace', () => {
  it('copies all but packages/, and drops `workspaces` from package.json', () => {
    const from = project('repo', {
      'package.json': JSON.stringify({ name: 't', workspaces: ['packages/*'], dependencies: { p: '^1.0.0' } }),
      'src/index.ts': 'export {};\n',
      'packages/p/package.json': '{}',
    });
    const to = join(scratch, 'template');
    copyTemplate(from, to);
    expect(JSON.parse(readFileSync(join(to, 'package.json'), 'utf8'))).toEqual({
      name: 't',
      dependencies: { p: '^1.0.0' },
    });
    expect(readFileSync(join(to, 'src/index.ts'), 'utf8')).toBe('export {};\n');
    expect(() => readFileSync(join(to, 'packages/p/package.json'))).toThrow();
  });
});

describe('addImport', () => {
  it('adds the line after the last import, a multi-line one too, not after a dynamic import()', () => {
    const dir = project('imports', {
      'a.ts': "/** doc */\nimport a from 'a';\nimport type {\n  B,\n} from 'b';\n\nconst x = 1;\nawait import('z');\n",
    });
    addImport(dir, 'a.ts', "import { c } from './c';");
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toBe(
      "/** doc */\nimport a from 'a';\nimport type {\n  B,\n} from 'b';\nimport { c } from './c';\n\nconst x = 1;\nawait import('z');\n",
    );
  });
});
