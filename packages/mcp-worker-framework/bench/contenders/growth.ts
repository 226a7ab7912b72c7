/** Contender "template" with TOOL_COUNT tools (set at build time): does cost stay flat as tools grow? */
import { createRouter } from '../../src/http/router';
import type { WorkerEnv } from '../../src/env';
import { createServer, defineTool, text } from '../../src/mcp';

declare const TOOL_COUNT: number;

const tools = Array.from({ length: TOOL_COUNT }, (_, i) =>
  defineTool({
    name: i === TOOL_COUNT - 1 ? 'echo' : `tool_${i}`,
    description: `Tool number ${i}`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    handler: ({ text: value }) => text(value),
  }),
);

const router = createRouter(createServer({ info: { name: 'bench-server', version: '1.0.0' }, tools }));

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<WorkerEnv>;
