import { defineConfig } from 'vitest/config';

/** `npm run test:browser`: what a real browser shows (Debian's chromium, test/browser/support/chromium.ts). */
export default defineConfig({
  test: {
    // The examples' own browser tests live with them, in the template's test/ at the repository's root.
    include: ['test/browser/**/*.test.ts'],
    // Each file starts the Workers it shows with the test kit; no shared fixtures.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One browser at a time: two cores, and each Chromium is several processes.
    fileParallelism: false,
  },
});
