/**
 * The auth modes the default Worker (src/index.ts) serves: bearer. The modes that check a token
 * with an authorization server (jwt and access, which bring jose, and introspect) are paid for at
 * every cold start (node_modules/mcp-worker-framework/docs/performance.md, "Module load"), so a Worker adds them to `auth` when it
 * uses them.
 */
import { describe, expect, it } from 'vitest';
import worker from '../src/index';
import { testClient } from 'mcp-worker-framework/testing';

const jwtSettings = { AUTH_ISSUER: 'https://issuer.example.com', AUTH_RESOURCE: 'https://mcp.example.com/mcp' };

describe('the default Worker', () => {
  it.each(['jwt', 'access', 'introspect'])(
    'refuses AUTH_MODE = "%s" with -32603 naming the modes it serves and where to add one',
    async (mode) => {
      const mcp = testClient(worker, { env: { AUTH_MODE: mode, ...jwtSettings } });
      await expect(mcp.listTools()).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining(
          'names a mode this Worker does not include (it serves none, bearer): add the mode to `auth: [...]` in src/index.ts',
        ),
      });
    },
  );

  it('serves AUTH_MODE = "bearer": the right token lists the tools', async () => {
    const env = { AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'default worker token' };
    const mcp = testClient(worker, { env, headers: { Authorization: 'Bearer default worker token' } });
    const { result } = await mcp.listTools();
    expect(result.tools.length).toBeGreaterThan(0);
  });
});
