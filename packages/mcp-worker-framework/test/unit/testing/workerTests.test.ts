/**
 * src/testing/workerTests.ts: a fork's tests load its Worker in Node, where `cloudflare:workers`
 * exists only as the preset's stand-in, given to what vitest transforms. A module of the package
 * that imports it and is not in `THROUGH_VITEST` is loaded by Node's own loader in a fork on the
 * published package, and the fork's every test fails ("Received protocol 'cloudflare:'": events',
 * missing from the list, was seen so in the fork check's packed round).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THROUGH_VITEST, workerTests } from '../../../src/testing/workerTests';

const src = join(import.meta.dirname, '../../../src');

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

/** The modules a fork's tests may load that import the Workers runtime's own module at run time (the preset itself names it only). */
const runtimeImporters = [...sources(src)]
  .filter((path) => !path.includes('/testing/'))
  .filter((path) => /^import (?!type )[^;]*from 'cloudflare:workers'/m.test(readFileSync(path, 'utf8'))) // a type import is erased
  .map((path) => relative(src, path).replace(/\.ts$/, '.js'));

describe('workerTests', () => {
  it('finds the modules that import cloudflare:workers (the Durable Objects of tasks, notifications, events and sign-in)', () =>
    expect(runtimeImporters.length).toBeGreaterThanOrEqual(4));

  it.each(runtimeImporters)("passes %s through vitest's transform, where the stand-ins are given", (module) => {
    const inFork = `/fork/node_modules/mcp-worker-framework/dist/${module}`;
    expect(
      THROUGH_VITEST.some((pattern) => (typeof pattern === 'string' ? inFork.includes(pattern) : pattern.test(inFork))),
    ).toBe(true);
  });

  it('hands the list to vitest as the modules to inline', () =>
    expect(workerTests().test?.server?.deps?.inline).toBe(THROUGH_VITEST));
});
