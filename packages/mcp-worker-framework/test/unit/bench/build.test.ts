/**
 * The benchmark measures what a forker ships (bench/build.mjs): the Worker of the template at the
 * repository's root with its rate limiters removed (and a fork made the README's way);
 * `npm run bench:size -- --check` names a contender over its budget.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript modules of the benchmark and the scripts
import { configFromRoot } from '../../../bench/build.mjs';
// @ts-expect-error: as above
import { BUDGETS, overBudget } from '../../../bench/size.mjs';

/** The template: the repository's root, around this package. */
const root = resolve(__dirname, '../../../../..');
const scratch = mkdtempSync(join(tmpdir(), 'bench-contenders-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the benchmark contenders of what a forker ships', () => {
  it('serves a repository configuration without its rate limiters, assets or build step, main made absolute, with a state secret', () => {
    const source = join(scratch, 'source');
    mkdirSync(join(source, 'src'), { recursive: true });
    writeFileSync(join(source, 'src/index.ts'), 'export default {};\n');
    writeFileSync(
      join(source, 'wrangler.toml'),
      [
        'name = "a-worker"',
        'main = "src/index.ts"',
        '[build]',
        'command = "node scripts/build-views.mjs"',
        '[assets]',
        'directory = "build/views"',
        'binding = "ASSETS"',
        '[vars]',
        'REQUEST_LOGS = "errors"',
        '# Rate limits',
        '[[ratelimits]]',
        'name = "MCP_RATE_LIMITER"',
        'simple = { limit = 1000, period = 60 }',
        '[[ratelimits]]',
        'name = "DISCOVER_RATE_LIMITER"',
        'simple = { limit = 3000, period = 60 }',
        '[observability]',
        'enabled = true',
        '',
      ].join('\n'),
    );
    const config = readFileSync(configFromRoot(source, join(scratch, 'shipped.wrangler.toml')) as string, 'utf8');
    expect(config).not.toMatch(/ratelimits|RATE_LIMITER|limit = |^\[assets\]|ASSETS|^\[build\]|build-views/m);
    expect(config).toMatch(new RegExp(`^main = "${join(source, 'src/index.ts')}"$`, 'm'));
    expect(config).toMatch(/^\[vars\]\nMCP_STATE_SECRET = "bench"\nREQUEST_LOGS = "errors"$/m);
    expect(config).toMatch(/^\[observability\]\nenabled = true$/m); // the tables after the stripped ones kept
  });

  it("reads the template's configuration at the repository's root, whatever its main", () => {
    const config = readFileSync(configFromRoot(root, join(scratch, 'root.wrangler.toml')) as string, 'utf8');
    const main = /^main = "([^"]+)"/m.exec(config)?.[1] ?? '';
    expect(main.startsWith(root)).toBe(true);
    expect(readFileSync(main, 'utf8').length).toBeGreaterThan(0);
    expect(config).not.toMatch(/^\[\[ratelimits\]\]/m);
  });

  it('names each contender over its budget, with its size', () => {
    expect(overBudget({ shipped: BUDGETS.shipped, fork: BUDGETS.fork })).toEqual([]);
    expect(overBudget({ shipped: BUDGETS.shipped, fork: BUDGETS.fork + 10 })).toEqual([
      `fork: ${BUDGETS.fork + 10} bytes gzip, 10 over its budget of ${BUDGETS.fork}`,
    ]);
  });
});
