/**
 * The repository's CI in step with itself and with the README. `.github/workflows/ci.yml` is the
 * fork's own: the README's test command and check on every push and pull request, and a deploy of
 * main with Cloudflare's official wrangler action only after they pass and only when the two
 * secrets are set (README, "Deploy"); nothing in it names the framework or the examples.
 * `.github/workflows/framework.yml` runs the framework's suite when packages/ changes, and skips
 * (never fails) where packages/ or the examples are gone. `.ci/run` runs all of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  id?: string;
  env?: Record<string, string>;
}
interface Job {
  needs?: string[];
  if?: string;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, { paths?: string[] } | null>;
  jobs: Record<string, Job>;
}

/** The repository's root, seen from packages/mcp-worker-framework/test/unit. */
const root = new URL('../../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const workflow = (name: string) => parse(read(`.github/workflows/${name}`)) as Workflow;
const runs = (job: Job) => job.steps.flatMap((step) => (step.run ? [step.run] : []));
const setupNode = (job: Job) => job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));

const ci = workflow('ci.yml');
const framework = workflow('framework.yml');
const ciRun = read('.ci/run');
const readme = read('README.md');
const scripts = (path: string): Record<string, string> => JSON.parse(read(path)).scripts;
const template = scripts('package.json');
const pkg = scripts('packages/mcp-worker-framework/package.json');

/** The commands `.ci/run` runs as steps, in order (`step '<label>' <command>`). */
const ciRunSteps = [...ciRun.matchAll(/^\s*step '[^']+' (.+)$/gm)].map(([, command]) => command!.trim());

/** `npm test`, `npm run x`, `npm run x -w w`: each names a script that exists where it runs. */
function expectScriptsExist(commands: string[]) {
  for (const command of commands) {
    const npm = /^npm (test|run ([\w:-]+))(?: -w ([\w-]+))?$/.exec(command);
    if (!npm || command === 'npm ci') continue;
    const [, , named, workspace] = npm;
    const script = named ?? 'test';
    const where = workspace === undefined ? template : pkg;
    expect(workspace === undefined || workspace === 'mcp-worker-framework', command).toBe(true);
    expect(where[script], `${command}: no "${script}" script`).toBeTypeOf('string');
  }
}

describe('ci.yml: the fork’s own CI', () => {
  it('runs on push and on pull request, a test job and the deploy', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    expect(Object.keys(ci.jobs).sort()).toEqual(['deploy', 'test']);
  });

  it("tests on Node 22 with the README's test command, then check, and nothing of the framework's or the examples'", () => {
    const { test } = ci.jobs;
    expect(setupNode(test!)?.with?.['node-version']).toBe(22);
    expect(runs(test!)).toEqual(['npm ci', 'npm test', 'npm run check']);
    expectScriptsExist(runs(test!));
    // The README's "Two commands": the test command CI runs is the one a reader is told to run.
    expect(readme).toMatch(/^npm test\s+#/m);
    // What a fork deletes or never has: the examples, the workspace, the maintainers' checks.
    for (const command of Object.values(ci.jobs).flatMap(runs))
      expect(command).not.toMatch(/packages\/|-w |test:fork|test:packed|test:browser|world-clock|examples/);
  });

  it('deploys only a push to main, after the tests, with the wrangler action, only when both secrets are set', () => {
    const { deploy } = ci.jobs;
    expect(deploy!.needs).toEqual(['test']);
    expect(deploy!.if).toBe("github.event_name == 'push' && github.ref == 'refs/heads/main'");
    expect(deploy!.env).toEqual({
      CLOUDFLARE_API_TOKEN: '${{ secrets.CLOUDFLARE_API_TOKEN }}',
      CLOUDFLARE_ACCOUNT_ID: '${{ secrets.CLOUDFLARE_ACCOUNT_ID }}',
    });
    const action = deploy!.steps.find((step) => step.uses?.startsWith('cloudflare/wrangler-action@'));
    expect(action?.with).toMatchObject({
      apiToken: '${{ secrets.CLOUDFLARE_API_TOKEN }}',
      accountId: '${{ secrets.CLOUDFLARE_ACCOUNT_ID }}',
      command: 'deploy',
    });
    // Every step that does something waits for the secrets; the one that does not says why nothing happened.
    const gated = "env.CLOUDFLARE_API_TOKEN != '' && env.CLOUDFLARE_ACCOUNT_ID != ''";
    const [notice, ...rest] = deploy!.steps;
    expect(notice!.if).toBe("env.CLOUDFLARE_API_TOKEN == '' || env.CLOUDFLARE_ACCOUNT_ID == ''");
    for (const step of rest) expect([gated, "steps.deploy.outcome == 'success'"]).toContain(step.if);
  });

  it('prints the next steps with a module the installed package ships', () => {
    const { deploy } = ci.jobs;
    const last = runs(deploy!).at(-1)!;
    const module = /from '\.\/node_modules\/mcp-worker-framework\/([^']+)'/.exec(last)?.[1];
    expect(module).toBeDefined();
    expect(existsSync(new URL(`packages/mcp-worker-framework/${module}`, root))).toBe(true);
    const { files } = JSON.parse(read('packages/mcp-worker-framework/package.json')) as { files: string[] };
    expect(files.some((entry) => module === entry || module!.startsWith(`${entry}/`))).toBe(true);
  });
});

describe("framework.yml: the framework's suite", () => {
  it('runs only when packages/ (or itself) changes', () => {
    expect(Object.keys(framework.on).sort()).toEqual(['pull_request', 'push']);
    for (const trigger of Object.values(framework.on))
      expect(trigger?.paths).toEqual(['packages/**', '.github/workflows/framework.yml']);
  });

  it('skips every job, never fails, where packages/ no longer holds the framework', () => {
    const { layout, ...rest } = framework.jobs;
    expect(layout!.needs).toBeUndefined();
    expect(runs(layout!).join('\n')).toContain('[ -f packages/mcp-worker-framework/package.json ]');
    for (const [name, job] of Object.entries(rest)) {
      expect(job.needs, name).toEqual(['layout']);
      expect(job.if, name).toMatch(/^needs\.layout\.outputs\.framework == 'yes'/);
    }
    // The fork and packed checks follow "Make it yours" from the examples: skipped where a fork deleted them.
    expect(framework.jobs.fork!.if).toBe(
      "needs.layout.outputs.framework == 'yes' && needs.layout.outputs.template == 'yes'",
    );
    expect(runs(layout!).join('\n')).toMatch(/\[ -d (\S+) \]/);
    const example = /\[ -d (\S+) \]/.exec(runs(layout!).join('\n'))![1]!;
    expect(existsSync(new URL(example, root))).toBe(true);
  });

  it("runs the framework's suite and check, the browser tests and the fork and packed checks, on Node 22", () => {
    const { suite, browser, fork } = framework.jobs;
    for (const job of [suite!, browser!, fork!]) expect(setupNode(job)?.with?.['node-version']).toBe(22);
    expect(runs(suite!)).toEqual([
      'npm ci',
      'npm test -w mcp-worker-framework',
      'npm run check -w mcp-worker-framework',
    ]);
    expect(runs(browser!)).toEqual([
      'sudo apt-get update && sudo apt-get install -y chromium',
      'npm ci',
      'npm run test:browser -w mcp-worker-framework',
      'npm run test:browser',
    ]);
    // The template's browser test is of its example view: where a fork deleted it, skipped.
    expect(browser!.steps.find((step) => step.run === 'npm run test:browser')?.if).toBe(
      "needs.layout.outputs.template == 'yes'",
    );
    expect(runs(fork!)).toEqual([
      'npm ci',
      'npm run test:fork -w mcp-worker-framework',
      'npm run test:packed -w mcp-worker-framework',
    ]);
    for (const job of [suite!, browser!, fork!]) expectScriptsExist(runs(job));
  });
});

describe('.ci/run: everything, on a fresh clone', () => {
  it('runs what both workflows run, the template first, each step timed', () => {
    expect(ciRunSteps.slice(0, 5)).toEqual([
      'npm ci',
      'npm test',
      'npm run check',
      'npm test -w mcp-worker-framework',
      'npm run check -w mcp-worker-framework',
    ]);
    const workflows = [...Object.values(ci.jobs), ...Object.values(framework.jobs)].flatMap(runs);
    const npm = workflows.filter((command) => command.startsWith('npm '));
    for (const command of npm) expect(ciRunSteps, command).toContain(command);
    expectScriptsExist(ciRunSteps);
    // Each step's duration is printed, passed or failed.
    expect(ciRun).toContain('trap report EXIT');
  });

  it("installs Debian's chromium, when missing, before the browser tests", () => {
    const install = ciRunSteps.indexOf('install_chromium');
    expect(install).toBeGreaterThan(0);
    expect(install).toBeLessThan(ciRunSteps.indexOf('npm run test:browser -w mcp-worker-framework'));
    expect(ciRun).toContain('apt-get install -y --no-install-recommends chromium');
  });
});
