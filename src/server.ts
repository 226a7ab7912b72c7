/**
 * YOUR SERVER. This is the file to edit: its name and version, the instructions the model
 * reads, the caching hints, and what it serves. It is the definition only: src/index.ts
 * compiles it once, with the features it turns on (MCP Apps, Agent Skills, tasks). Adding a tool
 * is one file in `src/tools/` and one line in `tools` below; resources and prompts work the same way.
 */
import { version } from '../package.json';
import type { ServerDefinition } from 'mcp-worker-framework';
import { summarizeRepo } from './prompts/summarize-repo';
import { timeInZone, timeZones } from './resources/time-zones';
import { worldClockView } from './resources/world-clock-view';
import { add } from './tools/add';
import { compileReport } from './tools/compile-report';
import { currentTime } from './tools/current-time';
import { githubRepo } from './tools/github-repo';
import { worldClockRefresh, worldClockTool } from './tools/world-clock';

export const serverDefinition: ServerDefinition = {
  info: { name: 'mcp-worker-template', version },
  // The Server Card (node_modules/mcp-worker-framework/docs/discovery.md): your name in reverse-DNS form, e.g. 'com.example/weather'.
  card: {
    name: 'io.github.your-org/mcp-worker-template',
    description: 'A stateless MCP server on Cloudflare Workers, made from the MCP Worker template.',
  },
  instructions:
    'Example tools: add numbers, look up a GitHub repository, tell the time in a time zone or in several at once (world_clock, shown as a chart where the host renders views), compile a report.',
  tools: [add, githubRepo, currentTime, compileReport, worldClockTool, worldClockRefresh],
  resources: [timeZones, worldClockView],
  resourceTemplates: [timeInZone],
  prompts: [summarizeRepo],
  // Caching hints (spec 2026-07-28 server/utilities/caching). Unset, the defaults apply:
  // discover 1 h, lists 5 min, reads 1 min; public, but private for an authenticated caller.
  // Setting one here makes it explicit, e.g. public even under auth (what not every caller may
  // see, by requiredScopes or visibleTo, is listed and read privately all the same):
  // cache: { 'tools/list': { ttlMs: 300_000, cacheScope: 'public' } },
};
