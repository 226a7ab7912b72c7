/**
 * The benchmark measures what a forker ships (bench/build.mjs): the root's Worker with its rate
 * limiters removed, and a fork made the README's way (scripts/forkCopy.mjs, shared with
 * `npm run test:fork`); `npm run bench:size -- --check` names a contender over its budget.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript modules of the benchmark and the scripts
import { configFromRoot, FORK_TOOL } from '../../bench/build.mjs';
// @ts-expect-error: as above
import { BUDGETS, overBudget } from '../../bench/size.mjs';
// @ts-expect-error: as above
import { addReadmeTool, copyRepository, EXAMPLES, makeItYours } from '../../scripts/forkCopy.mjs';

const root = resolve(__dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'bench-contenders-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the benchmark contenders of what a forker ships', () => {
  it('serves the root configuration without its rate limiters, assets or build step, main made absolute, with a state secret', () => {
    const out = configFromRoot(root, join(scratch, 'shipped.wrangler.toml')) as string;
    const config = readFileSync(out, 'utf8');
    expect(readFileSync(join(root, 'wrangler.toml'), 'utf8')).toMatch(/^\[\[ratelimits\]\]/m); // what is stripped is there to strip
    expect(config).not.toMatch(/^\[\[ratelimits\]\]|^\[assets\]|^\[build\]|RATE_LIMITER/m);
    const main = /^main = "([^"]+)"/m.exec(config)?.[1] ?? '';
    expect(main.startsWith('/')).toBe(true);
    expect(readFileSync(main, 'utf8').length).toBeGreaterThan(0);
    expect(config).toMatch(/^\[vars\]\nMCP_STATE_SECRET = "bench"$/m);
    expect(config).toMatch(/^REQUEST_LOGS = /m); // the root's vars kept
    expect(config).toMatch(/^\[observability\]/m); // and the tables after the stripped ones
  });

  it('makes the fork the README way: no examples, the README tool the bench calls, in tools', () => {
    const fork = join(scratch, 'fork');
    mkdirSync(fork);
    copyRepository(root, fork);
    makeItYours(fork, { name: 'my-fork-server', cardName: 'io.github.my-fork-org/my-fork-server' });
    const tool = addReadmeTool(root, fork);
    expect(tool.toolName).toBe(FORK_TOOL);
    const server = readFileSync(join(fork, 'src/server.ts'), 'utf8');
    expect(server).toContain(`tools: [${tool.exported}],`);
    expect(server).not.toMatch(/from '\.\/(resources|prompts)\//);
    expect(server).toContain("info: { name: 'my-fork-server'");
    for (const folder of EXAMPLES.filter((f: string) => f !== 'src/tools')) expect(() => readFileSync(join(fork, folder))).toThrow();
  }, 60_000);

  it('names each contender over its budget, with its size', () => {
    expect(overBudget({ shipped: BUDGETS.shipped, fork: BUDGETS.fork })).toEqual([]);
    expect(overBudget({ shipped: BUDGETS.shipped, fork: BUDGETS.fork + 10 })).toEqual([`fork: ${BUDGETS.fork + 10} bytes gzip, 10 over its budget of ${BUDGETS.fork}`]);
  });
});
