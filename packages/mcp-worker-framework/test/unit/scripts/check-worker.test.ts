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

  it('reports an enterprise identity provider the sign-in library would never trust: its issuer is not https', async () => {
    const { code, output } = await run('test/fixtures/broken/enterprise.wrangler.toml');
    expect(code).toBe(1);
    expect(output).toContain(
      'signIn({ enterprise }): the identity provider "http://idp.example.com" cannot be trusted: its issuer must be an https URL',
    );
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

/** The problems `npm run check` names for one fixture config of test/fixtures/check/, and all it printed. */
const checked = async (name: string) => {
  const config = `test/fixtures/check/${name}.wrangler.toml`;
  const { code, output } = await run(config);
  return { code, output, config };
};

describe('npm run check: the config, read as the deployed Worker reads it', () => {
  it('refuses a misspelt AUTH_MODE as the Worker would, naming the setting, its value and the values it accepts', async () => {
    const { code, output } = await checked('auth-typo');
    expect(code).toBe(1);
    expect(output).toContain(
      'the Worker would refuse every request: the setting AUTH_MODE must be "bearer" or "none": the mode src/index.ts lists in `auth`, or none (it is "berer"); did you mean "bearer"?',
    );
  }, 60_000);

  it('refuses AUTH_MODE unset beside several modes, naming them', async () => {
    const { code, output } = await checked('auth-unchosen');
    expect(code).toBe(1);
    expect(output).toContain('the setting AUTH_MODE must be "bearer", "jwt" or "none"');
  }, 60_000);

  it('refuses AUTH_MODE = "none" beside the one mode listed, which would serve everyone', async () => {
    const { code, output } = await checked('auth-none');
    expect(code).toBe(1);
    expect(output).toContain(
      'AUTH_MODE = "none" turns off bearer, the one mode src/index.ts lists in `auth`, and serves everyone',
    );
  }, 60_000);

  it('names a var that misspells a setting, and the setting, not a stale Env type', async () => {
    const { code, output } = await checked('misspelt-var');
    expect(code).toBe(1);
    expect(output).toContain('[vars] REQUST_LOGS is not a setting of this Worker: did you mean REQUEST_LOGS?');
    expect(output).not.toMatch(/cf-typegen/);
  }, 60_000);

  it('says a refused setting in one line, with no stack trace after it', async () => {
    const { code, output, config } = await checked('refused');
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toEqual([
      `check-worker: ${config}:`,
      '  - the Worker would refuse every request: the setting AUTH_ISSEUR is not a setting of this Worker; its AUTH_ settings are AUTH_MODE, AUTH_SCOPES',
    ]);
  }, 60_000);

  it('prints one line for a clean Worker: no request log of a list it does not serve', async () => {
    const { code, output, config } = await checked('clean');
    expect(output.trim().split('\n')).toEqual([`check-worker: ${config}: loads, and every schema is valid`]);
    expect(code).toBe(0);
  }, 60_000);

  it("points a tool's load error at the tool's own file and line", async () => {
    const { code, output } = await checked('load-error');
    expect(code).toBe(1);
    const tool = readFileSync(new URL('../../fixtures/check/headerTool.ts', import.meta.url), 'utf8').split('\n');
    const line = tool.findIndex((text) => text.includes("name: 'header_on_a_number'")) + 1;
    expect(output).toContain(
      'the Worker fails to load: tool "header_on_a_number": x-mcp-header at /n must annotate a string, integer or boolean parameter',
    );
    expect(output).toContain(`at test/fixtures/check/headerTool.ts:${line}\n`);
  }, 60_000);
});

describe('npm run check: each Durable Object an extension runs in or an auth mode needs', () => {
  it('names the binding wrangler only warns about, and pastes the blocks to add: the binding and a migration, last', async () => {
    const { code, output, config } = await checked('objects-missing');
    expect(code).toBe(1);
    expect(output).toContain('wrangler warns about it: Unexpected fields found in top-level field: "durable_object"');
    expect(output).toContain(
      `McpTask runs in a Durable Object with no binding: add to ${config}:\n\n      [[durable_objects.bindings]]\n      name = "MCP_TASKS"\n      class_name = "McpTask"\n`,
    );
    expect(output).toContain(
      `McpTask has no migration that creates it: add at the end of ${config}:\n\n      [[migrations]]\n      tag = "v2"\n      new_sqlite_classes = ["McpTask"]\n`,
    );
    expect(output).not.toMatch(/McpNotifications/);
  }, 60_000);

  it('refuses migrations out of order: a later one above the one deployed first', async () => {
    const { code, output } = await checked('objects-order');
    expect(code).toBe(1);
    expect(output).toContain(
      '[[migrations]] "v2" (McpTask) comes before "v1" (McpNotifications): wrangler applies, in file order, the migrations after the last one it deployed',
    );
  }, 60_000);

  it('names a class the entry does not export, in the words of wrangler, without its banner', async () => {
    const { code, output } = await checked('unexported');
    expect(code).toBe(1);
    expect(output).toContain(
      'not exported in your entrypoint file: McpNotifications. You should export these objects from your entrypoint, test/fixtures/check/unexported.ts.',
    );
    expect(output).not.toMatch(/Command failed|⛅️/);
  }, 60_000);

  it("holds enterprise sign-in to its McpAssertion as to an extension's object: the binding said once, with its block, and a migration", async () => {
    const unbound = await checked('enterprise-unbound');
    expect(unbound.code).toBe(1);
    expect(unbound.output).toContain(
      `McpAssertion runs in a Durable Object with no binding: add to ${unbound.config}:\n\n      [[durable_objects.bindings]]\n      name = "MCP_ASSERTIONS"\n      class_name = "McpAssertion"\n`,
    );
    expect(unbound.output).toContain(
      `McpAssertion has no migration that creates it: add at the end of ${unbound.config}:\n\n      [[migrations]]\n      tag = "v1"\n      new_sqlite_classes = ["McpAssertion"]\n`,
    );
    // The Worker's own refusal says the same of the binding without the block: not said twice.
    expect(unbound.output).not.toMatch(/MCP_ASSERTIONS is required/);

    const unmigrated = await checked('enterprise-unmigrated');
    expect(unmigrated.code).toBe(1);
    expect(unmigrated.output).toContain('McpAssertion has no migration that creates it');
    expect(unmigrated.output).not.toMatch(/no binding/);
  }, 60_000);

  it('passes both features on, bound, exported and migrated in order', async () => {
    const { code, output, config } = await checked('objects');
    expect(output.trim()).toBe(`check-worker: ${config}: loads, and every schema is valid`);
    expect(code).toBe(0);
  }, 60_000);
});
