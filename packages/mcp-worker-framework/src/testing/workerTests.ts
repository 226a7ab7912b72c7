/**
 * `workerTests()`: a fork's vitest configuration, from the package so that a release can fix it
 * (a fork's vitest.config.ts is `export default workerTests()`, its vitest.browser.config.ts
 * `export default workerTests({ browser: true })`; vitest's `mergeConfig` adds its own).
 *
 * `npm test` runs every `test/**\/*.test.ts` in Node; what a browser shows, `*.browser.test.ts`,
 * runs in `npm run test:browser` only, so `npm test` needs no system package. A test that imports
 * the Worker (`testClient(worker)`) loads it in Node: the Workers runtime's own module,
 * `cloudflare:workers` (the classes a Durable Object or an entrypoint extends: tasks,
 * notifications, events, sign-in's OAuth provider), is given stand-ins, so the Worker loads with any
 * feature on; what needs a Durable Object runs in workerd (`startInWorkerd`).
 */
import type { Plugin, ViteUserConfig } from 'vitest/config';

export interface WorkerTestsOptions {
  /** The browser tests (`*.browser.test.ts`, `npm run test:browser`) instead of the others. */
  browser?: boolean;
}

const RUNTIME = 'cloudflare:workers';
const STAND_IN = `\0${RUNTIME}`;

/** The stand-ins of `cloudflare:workers` in Node: classes that keep what the runtime hands them. */
const workersRuntimeInNode: Plugin = {
  name: 'cloudflare-workers-in-node',
  enforce: 'pre',
  resolveId: (id) => (id === RUNTIME ? STAND_IN : undefined),
  load: (id) =>
    id === STAND_IN
      ? 'class Base { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }\n' +
        'export class DurableObject extends Base {}\nexport class WorkerEntrypoint extends Base {}\n'
      : undefined,
};

/**
 * What imports `cloudflare:workers`, and so must pass through vitest's transform (where the
 * stand-ins are given) rather than Node's loader: the OAuth provider sign-in runs on, and the
 * framework's Durable Objects and sign-in (in a fork's node_modules; the workspace's copy is
 * transformed anyway, being outside node_modules). Every module of src/ that imports it is matched
 * here (test/unit/testing/workerTests.test.ts).
 */
export const THROUGH_VITEST = [
  '@cloudflare/workers-oauth-provider',
  /mcp-worker-framework\/dist\/(?:tasks|notifications|signin|events)\//,
];

export function workerTests({ browser = false }: WorkerTestsOptions = {}): ViteUserConfig {
  return {
    plugins: [workersRuntimeInNode],
    test: {
      include: browser ? ['test/**/*.browser.test.ts'] : ['test/**/*.test.ts'],
      exclude: browser ? ['**/node_modules/**'] : ['**/*.browser.test.ts', '**/node_modules/**'],
      // A fork whose views are gone has no browser test: `npm run test:browser` stays green.
      passWithNoTests: browser,
      // Tests that start workerd build the Worker with wrangler first (seconds on a busy machine); a browser, more.
      testTimeout: browser ? 60_000 : 20_000,
      hookTimeout: 120_000,
      server: { deps: { inline: THROUGH_VITEST } },
    },
  };
}
