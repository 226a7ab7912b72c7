import { defineConfig } from 'vitest/config';

// `npm run test:browser`: what a browser shows (the world clock's view in a host), in the system's Chromium.
export default defineConfig({
  test: {
    include: ['test/**/*.browser.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    server: { deps: { inline: ['mcp-worker-framework'] } },
  },
});
