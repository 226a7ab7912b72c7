/**
 * `npm run check` catches an author's mistakes before deploy (scripts/check-worker.mjs), with the
 * author's file and line: schemas that break the JSON Schema meta-schema, a server that
 * throws at load, a view that cannot be read. Run on the broken fixtures of test/fixtures/broken/.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = async (config: string) => {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--enable-source-maps',
      'scripts/check-worker.mjs',
      config,
    ]);
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
};

describe('npm run check: the built Worker, loaded once', () => {
  it('names each schema that is no JSON Schema, and each prompt argument the spec does not allow, with the file and line and the place in it', async () => {
    const { code, output } = await run('test/fixtures/broken/schemas.wrangler.toml');
    expect(code).toBe(1);
    expect(output).toMatch(
      /test\/fixtures\/broken\/tools\.ts:8: tool "misspelt_type" inputSchema is not a valid JSON Schema at \/properties\/n\/type: .*allowed values \(array, boolean, integer/,
    );
    expect(output).toMatch(
      /test\/fixtures\/broken\/tools\.ts:15: tool "required_not_a_list" inputSchema is not a valid JSON Schema at \/required: must be array/,
    );
    expect(output).toMatch(
      /test\/fixtures\/broken\/tools\.ts:29: prompt "required_yes" is not a valid Prompt of the spec: \/arguments\/0\/required must be boolean/,
    );
    expect(output).not.toMatch(/"fine"/);
  }, 60_000);

  it('refuses a config that deploys with EVENTS_LOOPBACK_CALLBACKS on while events are on (webhook callbacks to http on loopback are for a developer machine)', async () => {
    const { code, output } = await run('test/fixtures/broken/loopback.wrangler.toml');
    expect(code).toBe(1);
    expect(output).toContain(
      'EVENTS_LOOPBACK_CALLBACKS = "on" lets webhook subscriptions call back to http on loopback',
    );
  }, 60_000);

  it('says nothing of EVENTS_LOOPBACK_CALLBACKS in a Worker without events, which never reads it', async () => {
    const { code, output } = await run('test/fixtures/loopback-off.wrangler.toml');
    expect(output).not.toContain('EVENTS_LOOPBACK_CALLBACKS');
    expect(code).toBe(0);
  }, 60_000);

  it("reports a server that fails to load, with what to change and the author's line", async () => {
    const { code, output } = await run('test/fixtures/broken/duplicate.wrangler.toml');
    expect(code).toBe(1);
    expect(output).toContain(
      'the Worker fails to load: tool "fine" is defined twice: give each tool its own name, or list it once',
    );
    // The author's line: the one that lists the tool twice.
    const fixture = readFileSync(new URL('../../fixtures/broken/duplicate.ts', import.meta.url), 'utf8').split('\n');
    const line = fixture.findIndex((text) => text.includes('tools: [fine, fine]')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(output).toMatch(new RegExp(`at test/fixtures/broken/duplicate\\.ts:${line}:\\d+`));
  }, 60_000);

  it('reads every view from the assets it was built into, and names one whose page was never built', async () => {
    const { code, output } = await run('test/fixtures/apps/wrangler.toml');
    expect(code).toBe(1);
    expect(output).toMatch(
      /test\/fixtures\/apps\/server\.ts:\d+: view "ui:\/\/fixture\/unbuilt" cannot be read: .*ASSETS has no views\/never-built\.html \(404\): views\/never-built\/ is built into it by npm run build:views/,
    );
    expect(output).not.toMatch(/fixture\/(from-assets|inline)/);
  }, 60_000);

  it("reads each skill's SKILL.md from the assets, and names every skill they do not hold", async () => {
    const { code, output } = await run('test/fixtures/broken/skills.wrangler.toml');
    expect(code).toBe(1);
    for (const path of ['acme/billing/refunds', 'git-workflow', 'pdf-processing']) {
      expect(output).toContain(
        `skills/${path}/SKILL.md: skill "skill://${path}/SKILL.md" cannot be read: Server misconfigured: the setting ASSETS has no skills/${path}/SKILL.md (404)`,
      );
    }
  }, 60_000);

  it('passes a Worker with nothing wrong: the spec fixture, every feature the spec describes on', async () => {
    // The template's own Worker is checked by its `npm run check` (mcp-worker check).
    const { code, output } = await run('test/spec/fixture/wrangler.toml');
    expect(output).toContain('test/spec/fixture/wrangler.toml: loads, and every schema is valid');
    expect(code).toBe(0);
  }, 60_000);
});
