import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // What a browser shows runs in `npm run test:browser` (vitest.browser.config.ts): `npm test` needs no browser.
    exclude: ['**/*.browser.test.ts', '**/node_modules/**'],
    // Tests that start workerd build the Worker with wrangler first (seconds on a busy machine).
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // The framework's JavaScript imports its own modules without extensions, as a bundler (wrangler's, vite's) resolves them.
    server: { deps: { inline: ['mcp-worker-framework'] } },
  },
});
