import { defineConfig, type Plugin } from 'vitest/config';

/**
 * `cloudflare:workers` is the Workers runtime's own module: the classes a Durable Object or an
 * entrypoint extends (tasks, notifications, sign-in's OAuth provider). A test that imports
 * src/index.ts in Node (testClient(worker), README "Test your tool") gets these stand-ins, so the
 * Worker loads with any feature on; what needs a Durable Object runs in workerd (startInWorkerd).
 */
const workersRuntimeInNode: Plugin = {
  name: 'cloudflare-workers-in-node',
  enforce: 'pre',
  resolveId: (id) => (id === 'cloudflare:workers' ? '\0cloudflare:workers' : undefined),
  load: (id) =>
    id === '\0cloudflare:workers'
      ? 'class Base { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }\n' +
        'export class DurableObject extends Base {}\nexport class WorkerEntrypoint extends Base {}\n'
      : undefined,
};

export default defineConfig({
  plugins: [workersRuntimeInNode],
  test: {
    include: ['test/**/*.test.ts'],
    // What a browser shows runs in `npm run test:browser` (vitest.browser.config.ts): `npm test` needs no browser.
    exclude: ['**/*.browser.test.ts', '**/node_modules/**'],
    // Tests that start workerd build the Worker with wrangler first (seconds on a busy machine).
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // The framework's JavaScript imports its own modules without extensions, as a bundler (wrangler's, vite's) resolves them;
    // the OAuth provider imports cloudflare:workers, given to it by the plugin above.
    server: { deps: { inline: ['mcp-worker-framework', '@cloudflare/workers-oauth-provider'] } },
  },
});
