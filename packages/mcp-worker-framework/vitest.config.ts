import { defineConfig } from 'vitest/config';
import { workerTests } from './src/testing/workerTests.js';

export default defineConfig({
  // A Worker loaded in Node gets the stand-ins of cloudflare:workers a fork's tests get (the kit's preset).
  plugins: workerTests().plugins,
  test: {
    include: ['test/**/*.test.ts'],
    // What a browser shows runs in `npm run test:browser` (vitest.browser.config.ts): `npm test` needs no system package.
    exclude: ['test/browser/**', '**/*.browser.test.ts', '**/node_modules/**'],
    // Starts the shared fixture Workers in workerd through the test kit, once for all files; never the template's own.
    globalSetup: ['test/support/workers.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
