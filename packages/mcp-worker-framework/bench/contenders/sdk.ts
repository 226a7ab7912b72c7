/**
 * Contender "sdk": the official SDK's createMcpHandler (@modelcontextprotocol/server), one
 * tool echo(text). Its factory runs once per request (that is the SDK's design).
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the input text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  return server;
});

export default {
  // handler.fetch's second argument is { authInfo, parsedBody }, not env, and it does not route.
  fetch: (request: Request) =>
    new URL(request.url).pathname === '/mcp' ? handler.fetch(request) : new Response('Not Found', { status: 404 }),
};
