/**
 * .github/workflows/ci.yml runs the README's test command on every push and pull request, the
 * browser tests on Debian's chromium, and deploys main with Cloudflare's official wrangler action
 * only after both pass and only when the two secrets are set (README, "Deploy").
 */
import { readFileSync } from 'node:fs';
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
  steps: Step[];
}

const text = readFileSync(new URL('../../.github/workflows/ci.yml', import.meta.url), 'utf8');
const workflow = parse(text) as { on: Record<string, unknown>; jobs: Record<string, Job> };
const runs = (job: Job) => job.steps.flatMap((step) => (step.run ? [step.run] : []));
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('ci.yml', () => {
  it('runs on push and on pull request', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    expect(Object.keys(workflow.jobs).sort()).toEqual(['browser', 'deploy', 'test']);
  });

  it("tests on Node 22 with the README's test command, then check and the fork check, in that order", () => {
    const { test } = workflow.jobs;
    expect(test!.steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(22);
    expect(runs(test!)).toEqual(['npm ci', 'npm test', 'npm run check', 'npm run test:fork']);
    // The README's "Two commands": the test command CI runs is the one a reader is told to run.
    expect(readme).toMatch(/^npm test\s+#/m);
  });

  it("installs Debian's chromium before the browser tests", () => {
    const { browser } = workflow.jobs;
    expect(runs(browser!)).toEqual([
      'sudo apt-get update && sudo apt-get install -y chromium',
      'npm ci',
      'npm run test:browser',
    ]);
  });

  it('deploys only a push to main, after both test jobs, with the wrangler action, only when both secrets are set', () => {
    const { deploy } = workflow.jobs;
    expect(deploy!.needs).toEqual(['test', 'browser']);
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
});
