import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts the template Worker and the test fixture Worker in workerd, once for all files.
    globalSetup: ['test/support/workers.ts', 'test/spec/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
