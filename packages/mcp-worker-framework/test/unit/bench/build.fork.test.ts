/**
 * The benchmark's "fork" contender is made the README's way (scripts/forkCopy.mjs, shared with
 * `npm run test:fork`): from the template at the repository's root, whose examples a fork deletes.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript modules of the benchmark and the scripts
import { FORK_TOOL } from '../../../bench/build.mjs';
// @ts-expect-error: as above
import { addReadmeTool, copyRepository, makeItYours } from '../../../scripts/forkCopy.mjs';

// The template: the repository's root, which holds the package in packages/.
const root = resolve(__dirname, '../../../../..');
const scratch = mkdtempSync(join(tmpdir(), 'fork-contender-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the fork contender', () => {
  it('makes the fork the README way: no examples, the README tool the bench calls, in tools', () => {
    const fork = join(scratch, 'fork');
    mkdirSync(fork);
    copyRepository(root, fork);
    // What the README's "Delete the examples" names, deleted.
    const deleted: string[] = makeItYours(fork, {
      name: 'my-fork-server',
      cardName: 'io.github.my-fork-org/my-fork-server',
    });
    expect(deleted).toEqual(expect.arrayContaining(['src/tools/', 'src/resources/', 'src/prompts/']));
    const tool = addReadmeTool(root, fork);
    expect(tool.toolName).toBe(FORK_TOOL);
    const server = readFileSync(join(fork, 'src/server.ts'), 'utf8');
    expect(server).toContain(`tools: [${tool.exported}],`);
    expect(server).not.toMatch(/from '\.\/(resources|prompts)\//);
    expect(server).toContain("info: { name: 'my-fork-server'");
    for (const path of deleted.filter((p) => p !== 'src/tools/'))
      expect(existsSync(join(fork, path)), path).toBe(false);
  }, 60_000);
});
