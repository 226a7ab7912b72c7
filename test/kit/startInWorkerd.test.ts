/** The test kit's workerd runner: a fixture built by wrangler, run by Miniflare, its outbound fetch mocked. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as fixtureTools } from '../fixtures/tools';
import { startInWorkerd, testClient, type WorkerInWorkerd } from './index';

describe('startInWorkerd', () => {
  const outbound: string[] = [];
  let worker: WorkerInWorkerd;
  beforeAll(async () => {
    worker = await startInWorkerd({
      config: 'test/fixtures/wrangler.toml',
      vars: { UPSTREAM_URL: 'https://upstream.test', LISTEN_MAX_SECONDS: '2' },
      secrets: { MCP_STATE_SECRET: 'a secret set by the test' },
      outbound: (request) => {
        outbound.push(request.url);
        return Response.json({ answeredBy: 'the mock' });
      },
    });
  }, 120_000);
  afterAll(() => worker?.dispose());

  it('runs the Worker wrangler builds from the config', async () => {
    const tools = await testClient(worker).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(fixtureTools.map((tool) => tool.name));
  });

  it('answers the Worker’s outbound fetch with the mock, at the overridden upstream', async () => {
    const { result } = await testClient(worker).callTool('traced');
    expect(result.content).toEqual([{ type: 'text', text: '{"answeredBy":"the mock"}' }]);
    expect(outbound).toEqual(['https://upstream.test/echo-headers']);
  });

  it('gives the Worker the config’s vars, the overridden ones and the secrets', async () => {
    const env = await worker.env();
    expect(env).toMatchObject({ ALLOWED_ORIGINS: 'https://app.example.com, https://*.example.org', LISTEN_MAX_SECONDS: '2', MCP_STATE_SECRET: 'a secret set by the test' });
  });
});
