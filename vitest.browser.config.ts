import { workerTests } from 'mcp-worker-framework/vitest';

// `npm run test:browser`: what a browser shows (the world clock's view in a host), in the system's Chromium.
export default workerTests({ browser: true });
