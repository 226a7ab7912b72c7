/** Contender "agents": Cloudflare's createMcpHandler (agents/mcp/server) around the SDK's McpServer, one tool echo(text). */
import { McpServer } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'agents/mcp/server';
import * as z from 'zod/v4';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echo the input text', inputSchema: z.object({ text: z.string() }) },
      async ({ text }) => ({
        content: [{ type: 'text', text }],
      }),
    );
    return server;
  },
  { route: '/mcp' },
);

export default {
  fetch: (request: Request, env: unknown, ctx: ExecutionContext) => handler(request, env, ctx),
};
