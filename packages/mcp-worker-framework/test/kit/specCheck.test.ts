/**
 * specCheck, the spec's tests a fork's test/spec.test.ts registers: green on the fixture with one of
 * each kind, on servers with no tools, no resources, no prompts or nothing at all (a fork that
 * deleted the examples), and on one with bearer auth given its credentials; and able to fail: a
 * Worker that breaks a rule fails the test that checks it (run in a vitest of its own below).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/http/router';
import { createServer, type ServerDefinition } from '../../src/mcp';
import { bearer } from '../../src/auth';
import { specCheck } from '../../src/testing/specCheck';
import { defaults } from '../fixtures/defaults';
import defaultsWorker from '../fixtures/defaults.worker';

const workerOf = (definition: ServerDefinition, auth: Parameters<typeof createRouter>[1] = []) => {
  const router = createRouter(createServer(definition), auth);
  return { fetch: (request: Request, env: never, ctx: never) => router.fetch(request, env, ctx) };
};
const info = { name: 'spec-check-fixture', version: '1.0.0' };

specCheck(defaultsWorker, { title: 'specCheck: one of each kind' });
specCheck(workerOf({ ...defaults, tools: [] }), { title: 'specCheck: no tools' });
specCheck(workerOf({ ...defaults, resources: [], resourceTemplates: [] }), { title: 'specCheck: no resources' });
specCheck(workerOf({ ...defaults, prompts: [] }), { title: 'specCheck: no prompts' });
specCheck(workerOf({ info }), { title: 'specCheck: nothing served' });
specCheck(workerOf(defaults, [bearer]), {
  title: 'specCheck: bearer auth, given its credentials',
  env: { AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'spec check token' },
  headers: { Authorization: 'Bearer spec check token' },
});

describe('specCheck can fail', () => {
  it('fails the version test of a Worker that answers an unknown version 200', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spec-check-'));
    try {
      const kit = join(import.meta.dirname, '../../src/testing/specCheck.ts');
      writeFileSync(
        join(dir, 'lax.test.ts'),
        `import { specCheck } from ${JSON.stringify(kit)};
const ok = (result: unknown) => Response.json({ jsonrpc: '2.0', id: 1, result });
specCheck({ fetch: async () => ok({ supportedVersions: ['2026-07-28'], capabilities: {}, ttlMs: 0, cacheScope: 'public', tools: [] }) });
`,
      );
      let output = '';
      try {
        execFileSync(
          process.execPath,
          [
            join(import.meta.dirname, '../../../../node_modules/vitest/vitest.mjs'),
            'run',
            '--root',
            dir,
            '--reporter',
            'verbose',
          ],
          {
            encoding: 'utf8',
            stdio: 'pipe',
          },
        );
      } catch (error) {
        output = String((error as { stdout?: string }).stdout);
      }
      expect(output).toMatch(/×.*answers a version it does not speak with HTTP 400/);
      expect(output).toMatch(/✓.*discover: the version it speaks first/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
