/** Contender "template": this template serving one tool, echo(text). */
import { createRouter } from '../../src/http/router';
import type { WorkerEnv } from '../../src/env';
import { createServer, defineTool, text } from '../../src/mcp';

// The SDK's defaults, so both answer the same hints: immediately stale, private.
const hints = { ttlMs: 0, cacheScope: 'private' } as const;

const server = createServer({
  info: { name: 'bench-server', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'echo',
      description: 'Echo the input text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: ({ text: value }) => text(value),
    }),
  ],
  cache: { 'server/discover': hints, 'tools/list': hints },
});

const router = createRouter(server);

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<WorkerEnv>;
