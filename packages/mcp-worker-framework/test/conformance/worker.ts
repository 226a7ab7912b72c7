/** Conformance fixture Worker: the template's router serving the suite's fixture catalogue. */
import { createRouter } from '../../src/http/router';
import { createServer } from '../../src/mcp';
import { durableTasks, taskObject } from '../../src/tasks';
import { skills } from '../fixtures/skills/skills';
import { prompts, resources, resourceTemplates } from './catalogue';
import { mrtrPrompt, mrtrTools } from './mrtr';
import { taskTools } from './tasks';
import { behaviourTools, contentTools } from './tools';
import type { WorkerEnv } from '../../src/env';

const server = createServer(
  {
    info: { name: 'mcp-conformance-fixture', version: '1.0.0' },
    logging: true,
    // test_simple_text first: the header scenario calls tools[0] with no arguments.
    tools: [...contentTools, ...behaviourTools, ...mrtrTools, ...taskTools],
    resources,
    resourceTemplates,
    prompts: [...prompts, mrtrPrompt],
    cache: {
      'resources/read': { ttlMs: 0, cacheScope: 'private' },
    },
    // The Skills fixture's skills (test/fixtures/skills), for the suite's sep-2640-skills-* scenarios.
  },
  [durableTasks({ pollIntervalMs: 200 }), ...skills],
);

/** The Durable Object class behind MCP_TASKS (wrangler.toml): one object per task. */
export class McpTask extends taskObject(server) {}

const router = createRouter(server);

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<WorkerEnv>;
