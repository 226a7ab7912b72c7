#!/usr/bin/env node
/**
 * Builds what a fork imports: dist/, the JavaScript and declarations of src/ (tsconfig.build.json)
 * and of the test kit, which runs in Node (tsconfig.testing.json). Run by `prepare`, so the
 * workspace copy is built on `npm install` and the packed tarball carries dist/.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin/tsc');
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
for (const project of ['tsconfig.build.json', 'tsconfig.testing.json'])
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
