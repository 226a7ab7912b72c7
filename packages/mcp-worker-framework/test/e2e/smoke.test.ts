/** npm run smoke: the auto-mode check of any endpoint, run as a user would run it. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaults } from '../fixtures/defaults';
import { defaultsUrl } from '../support/mcp';

const script = fileURLToPath(new URL('../../scripts/smoke.mjs', import.meta.url));
const smoke = (...args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: 15_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr });
    });
  });

describe('npm run smoke', () => {
  it('reports era, version, serverInfo, capabilities, Cache-Control and tools, and calls a tool', async () => {
    const { code, out } = await smoke(defaultsUrl(), '--call', 'sum', '--args', '{"a":2,"b":3}');
    expect(code).toBe(0);
    expect(out).toMatch(/era\s+modern/);
    expect(out).toMatch(/version\s+2026-07-28/);
    expect(out).toContain(JSON.stringify(defaults.info));
    expect(out).toMatch(/cache-control\s+public, max-age=3600/);
    expect(out).toMatch(new RegExp(`tools\\s+${defaults.tools.map((tool) => tool.name).join(', ')}`));
    expect(out).toContain('{"sum":5}');
  });

  it('exits non-zero with a readable reason when the endpoint is unreachable or wrong', async () => {
    const unreachable = await smoke('http://127.0.0.1:9/mcp');
    expect(unreachable.code).toBe(1);
    expect(unreachable.out).toMatch(/FAILED to connect/);
    const wrongPath = await smoke(defaultsUrl().replace(/\/mcp$/, '/nothing'));
    expect(wrongPath.code).toBe(1);
    expect(wrongPath.out).toMatch(/Not Found/);
    const failingTool = await smoke(defaultsUrl(), '--call', 'sum', '--args', '{"a":"x"}');
    expect(failingTool.code).toBe(1);
    expect(failingTool.out).toMatch(/tools\/call sum/);
  });

  it('refuses bad usage with exit code 2', async () => {
    expect((await smoke()).code).toBe(2);
    expect((await smoke('not a url')).code).toBe(2);
  });
});
