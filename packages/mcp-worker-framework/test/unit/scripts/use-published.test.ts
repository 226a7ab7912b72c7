/**
 * `mcp-worker use-published` (scripts/use-published.mjs): a fork leaves the workspace copy for the
 * published package in one command. Here the "published" package is a folder (`file:`), so
 * `npm install` runs offline.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '../../../scripts/use-published.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'use-published-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const write = (path: string, value: unknown) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
};

/** A fork as the template ships it: the workspace copy in packages/, and a "published" version beside it. */
function fork(name: string, workspaces = ['packages/*']) {
  const dir = join(scratch, name);
  write(join(dir, 'package.json'), {
    name,
    private: true,
    workspaces,
    scripts: { test: 'vitest run' },
    dependencies: { 'mcp-worker-framework': '^1.0.0' },
  });
  write(join(dir, 'packages/mcp-worker-framework/package.json'), { name: 'mcp-worker-framework', version: '1.0.0' });
  const published = join(scratch, `${name}-published`);
  write(join(published, 'package.json'), { name: 'mcp-worker-framework', version: '1.0.1' });
  return { dir, published };
}

const run = async (cwd: string, ...args: string[]) => {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script, ...args], { cwd });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
};

describe('mcp-worker use-published', () => {
  it('sets the dependency, drops the workspace and its copy, and installs the package', async () => {
    const { dir, published } = fork('plain');
    const { code, output } = await run(dir, `file:${published}`, '--', '--offline', '--no-audit', '--no-fund');
    expect(output).toContain('use-published: done');
    expect(code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(manifest).toEqual({
      name: 'plain',
      private: true,
      scripts: { test: 'vitest run' },
      dependencies: { 'mcp-worker-framework': `file:${published}` },
    });
    expect(existsSync(join(dir, 'packages'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'node_modules/mcp-worker-framework/package.json'), 'utf8')).version).toBe(
      '1.0.1',
    );
  }, 60_000);

  it("keeps the fork's own workspaces", async () => {
    const { dir, published } = fork('own-workspaces', ['packages/*', 'tools/*']);
    await run(dir, `file:${published}`, '--', '--offline', '--no-audit', '--no-fund');
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).workspaces).toEqual(['tools/*']);
  }, 60_000);

  it('says there is nothing to do where there is no workspace copy, and changes nothing', async () => {
    const { dir } = fork('no-copy');
    rmSync(join(dir, 'packages'), { recursive: true });
    const before = readFileSync(join(dir, 'package.json'), 'utf8');
    const { code, output } = await run(dir);
    expect(code).toBe(1);
    expect(output).toContain('there is no workspace copy to leave');
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(before);
  });
});
