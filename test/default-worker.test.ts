/**
 * The auth modes the default Worker (src/index.ts) serves: none, since its `auth` lists none. A
 * mode is served once it is listed there (README, "Authorization"); until then an AUTH_MODE that
 * names one is refused, saying where to list it, never served open or half-configured.
 */
import { describe, expect, it } from 'vitest';
import worker from '../src/index';
import { testClient } from 'mcp-worker-framework/testing';

describe('the default Worker', () => {
  it.each(['bearer', 'jwt', 'access', 'introspect', 'signin'])(
    'refuses AUTH_MODE = "%s" with -32603 naming the one value it accepts and where a mode is listed',
    async (mode) => {
      const mcp = testClient(worker, { env: { AUTH_MODE: mode } });
      await expect(mcp.listTools()).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining(
          'Server misconfigured: the setting AUTH_MODE must be "none" or unset: src/index.ts lists no mode in `auth: [...]`',
        ),
      });
    },
  );

  it('serves everyone without AUTH_MODE: no auth is listed', async () => {
    const mcp = testClient(worker, { env: { AUTH_MODE: '' } });
    const { result } = await mcp.listTools();
    expect(result.tools.length).toBeGreaterThan(0);
  });
});
