import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts the fixture Workers (test/fixtures/) in workerd, once for all files; never the template's own.
    globalSetup: ['test/support/workers.ts', 'test/spec/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
