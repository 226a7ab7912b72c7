/** The test kit's workerd runner: a fixture built by wrangler, run by Miniflare, its outbound fetch mocked. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousTools } from '../fixtures/tools';
import { atUrl, startInWorkerd, testClient, type WorkerInWorkerd } from '../../src/testing/index';

describe('startInWorkerd', () => {
  const outbound: string[] = [];
  let worker: WorkerInWorkerd;
  beforeAll(async () => {
    worker = await startInWorkerd({
      config: 'test/fixtures/wrangler.toml',
      vars: { UPSTREAM_URL: 'https://upstream.test', LISTEN_MAX_SECONDS: '2', REQUEST_LOGS: 'on' },
      secrets: { MCP_STATE_SECRET: 'a secret set by the test' },
      outbound: (request) => {
        outbound.push(request.url);
        return Response.json({ answeredBy: 'the mock' });
      },
    });
  }, 120_000);
  afterAll(() => worker?.dispose());

  it('runs the Worker wrangler builds from the config', async () => {
    const { tools } = (await testClient(worker).listTools()).result;
    expect(tools.map((tool) => tool.name)).toEqual(anonymousTools.map((tool) => tool.name));
  });

  it('answers the Worker’s outbound fetch with the mock, at the overridden upstream', async () => {
    const { result } = await testClient(worker).callTool('traced');
    expect(result.content).toEqual([{ type: 'text', text: '{"answeredBy":"the mock"}' }]);
    expect(outbound).toEqual(['https://upstream.test/echo-headers']);
  });

  it('gives the Worker the vars and secrets the test states, and no other but AUTH_MODE none', async () => {
    const text = Object.entries(await worker.env()).filter(([, value]) => typeof value === 'string');
    expect(Object.fromEntries(text)).toEqual({
      AUTH_MODE: 'none',
      UPSTREAM_URL: 'https://upstream.test',
      LISTEN_MAX_SECONDS: '2',
      REQUEST_LOGS: 'on',
      MCP_STATE_SECRET: 'a secret set by the test',
    });
  });

  it('serves the Worker on loopback at its url, for a client that needs one', async () => {
    expect(worker.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { tools } = (await testClient(atUrl(`${worker.url}/mcp`)).listTools()).result;
    expect(tools.map((tool) => tool.name)).toEqual(anonymousTools.map((tool) => tool.name));
  });

  it('keeps what the Worker prints, one entry per console call', async () => {
    await fetch(`${worker.url}/no-such-path`);
    await expect
      .poll(() => worker.logs().filter((line) => line.includes('"url.path":"/no-such-path"')), { timeout: 3_000 })
      .toHaveLength(1);
    expect(JSON.parse(worker.logs().find((line) => line.includes('/no-such-path'))!)).toMatchObject({
      'http.response.status_code': 404,
    });
  });
});

describe('startInWorkerd, in a project whose own settings would change what a test sees', () => {
  it('reads neither the config’s [vars] nor a .dev.vars beside it: a test states the settings it runs under', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-settings-'));
    const main = new URL('../fixtures/worker.ts', import.meta.url).pathname;
    writeFileSync(
      join(dir, 'wrangler.toml'),
      `name = "kit-settings"\nmain = "${main}"\ncompatibility_date = "2026-11-01"\n\n[vars]\nAUTH_MODE = "bearer"\n`,
    );
    writeFileSync(join(dir, '.dev.vars'), 'AUTH_MODE=bearer\nMCP_BEARER_TOKEN=a-developer-secret\n');
    await using worker = await startInWorkerd({ config: join(dir, 'wrangler.toml') });
    const { tools } = (await testClient(worker).listTools()).result;
    expect(tools.length).toBeGreaterThan(0);
    const env = await worker.env();
    expect(env.AUTH_MODE).toBe('none'); // the kit's: a tool is tested without a credential
    expect(env.MCP_BEARER_TOKEN).toBeUndefined();
  }, 120_000);
});
