/**
 * YOUR SERVER. This is the file to edit: its name and version, the instructions the model
 * reads, the caching hints, and the list of tools. Adding a tool is one file in
 * `src/tools/` and one line in `tools` below.
 */
import { createServer } from './mcp';
import { add } from './tools/add';
import { currentTime } from './tools/current-time';
import { githubRepo } from './tools/github-repo';
import pkg from '../package.json';

export const server = createServer({
  info: { name: 'mcp-worker-template', version: pkg.version },
  instructions: 'Example tools: add numbers, look up a GitHub repository, tell the time in a time zone.',
  tools: [add, githubRepo, currentTime],
  // Caching hints (spec 2026-07-28 server/utilities/caching); these are the defaults.
  cache: {
    'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
    'tools/list': { ttlMs: 300_000, cacheScope: 'public' },
  },
});
