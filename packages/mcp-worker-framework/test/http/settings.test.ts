/**
 * A setting that cannot be read refuses to serve (docs/production.md, Settings): tried as a new
 * user would, a misspelt AUTH_MODE (a mode the entry does not include) in the edge fixture run by workerd. Every request is
 * answered 500 with a JSON-RPC error naming the setting; no tool runs; the log says it once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerInWorkerd } from '../../src/testing';
import { mcpHeaders, meta } from '../support/mcp';
import { startEdge } from './edge';

let worker: WorkerInWorkerd;

beforeAll(async () => {
  worker = await startEdge({ AUTH_MODE: 'berer' });
});
afterAll(() => worker?.dispose());

const call = (method: string, params: Record<string, unknown>, name?: string) =>
  fetch(`${worker.url}/mcp`, {
    method: 'POST',
    headers: mcpHeaders(method, name),
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta() } }),
  });

describe('a misspelt AUTH_MODE', () => {
  it('answers every request with 500 naming the setting and what it accepts, and serves nothing', async () => {
    for (const response of [
      await call('tools/call', { name: 'admin_only', arguments: {} }, 'admin_only'),
      await call('server/discover', {}),
    ]) {
      expect(response.status).toBe(500);
      const body = (await response.json()) as { id: unknown; error: { code: number; message: string; data: unknown } };
      expect(body.error.code).toBe(-32603);
      expect(body.error.message).toBe(
        'Server misconfigured: the setting AUTH_MODE must be "bearer" or "none": the mode src/index.ts lists in `auth`, or none',
      );
      expect(body.error.data).toEqual({ setting: 'AUTH_MODE' });
    }
    const metadata = await fetch(`${worker.url}/.well-known/oauth-protected-resource`);
    expect(metadata.status).toBe(500);
  });

  it('logs the reason once per isolate, with the value it could not read and the values it accepts', async () => {
    await (await call('tools/list', {})).text();
    const said = worker.logs().filter((line) => line.includes('refusing to serve'));
    expect(said).toEqual([
      'refusing to serve: the setting AUTH_MODE must be "bearer" or "none": the mode src/index.ts lists in `auth`, or none (it is "berer")',
    ]);
  });
});
