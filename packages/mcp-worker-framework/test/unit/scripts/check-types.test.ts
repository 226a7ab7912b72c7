/**
 * `mcp-worker check-types` (scripts/check-types.mjs), part of a fork's `npm run check`: is
 * worker-configuration.d.ts what the project's `npm run cf-typegen` makes of its wrangler.toml?
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const script = new URL('../../../scripts/check-types.mjs', import.meta.url).pathname;
const wrangler = new URL('../../../../../node_modules/wrangler/bin/wrangler.js', import.meta.url).pathname;
const project = mkdtempSync(join(tmpdir(), 'check-types-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const TYPEGEN = 'wrangler types --include-runtime=false --strict-vars=false';
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-fork', scripts: { 'cf-typegen': TYPEGEN } }));
writeFileSync(join(project, 'index.ts'), 'export default { fetch: () => new Response("ok") };\n');
writeFileSync(
  join(project, 'wrangler.toml'),
  'name = "a-fork"\nmain = "index.ts"\ncompatibility_date = "2026-11-01"\n[vars]\nGREETING = "hello"\n',
);

const checkTypes = async () => {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: project });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
};

describe('mcp-worker check-types', () => {
  it('passes when worker-configuration.d.ts is what cf-typegen writes, and fails naming npm run cf-typegen once wrangler.toml changes', async () => {
    await promisify(execFile)(process.execPath, [wrangler, ...TYPEGEN.split(' ').slice(1)], { cwd: project });
    expect(readFileSync(join(project, 'worker-configuration.d.ts'), 'utf8')).toContain('GREETING');
    const current = await checkTypes();
    expect(current.output).toContain('worker-configuration.d.ts matches wrangler.toml');
    expect(current.code).toBe(0);

    writeFileSync(
      join(project, 'wrangler.toml'),
      `${readFileSync(join(project, 'wrangler.toml'), 'utf8')}FAREWELL = "bye"\n`,
    );
    const stale = await checkTypes();
    expect(stale.code).toBe(1);
    expect(stale.output).toContain('run `npm run cf-typegen`');
    // wrangler's own advice, plain `wrangler types`, writes the runtime's types over workers-types'
    expect(stale.output).not.toContain('Run `wrangler types`');
  }, 120_000);
});
