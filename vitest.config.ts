import { workerTests } from 'mcp-worker-framework/vitest';

// `npm test`: every test/**/*.test.ts in Node, with the framework's settings (its stand-ins of the
// Workers runtime among them); the browser tests are vitest.browser.config.ts's.
export default workerTests();
