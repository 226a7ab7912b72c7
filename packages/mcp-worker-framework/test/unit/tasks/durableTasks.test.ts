/**
 * What the task runtime (src/tasks/durableTasks.ts) refuses before it addresses a task object,
 * in process: a task namespace that records every object asked for, and a Rate Limiting
 * binding that records its keys. The same refusals in workerd: test/tasks/bounds.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../../src/http/router';
import { createServer } from '../../../src/mcp';
import { TASKS_EXTENSION } from '../../../src/tasks/toolFields';
import { durableTasks } from '../../../src/tasks/durableTasks';
import { fixtureTaskTools } from '../../tasks/tools';
import { mcpHeaders, meta } from '../../support/mcp';
import type { WorkerEnv } from '../../../src/env';

afterEach(() => vi.restoreAllMocks());

const server = createServer(
  {
    info: { name: 'task-limits', version: '1.0.0' },
    tools: fixtureTaskTools,
  },
  [durableTasks()],
);
const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;

/** A task namespace whose objects are never reached: it records the names asked for. */
function namespace() {
  const names: string[] = [];
  const binding = {
    idFromName: (name: string) => (names.push(name), { name }),
    get: () => ({ start: async () => ({ error: { code: -32603, message: 'reached the object' } }) }),
  };
  return { names, binding };
}

const envWith = (vars: Record<string, unknown>) =>
  ({ REQUEST_LOGS: 'off', LEGACY_CLIENTS: 'on', MCP_STATE_SECRET: 'task limits', ...vars }) as unknown as WorkerEnv;

const createTask = () =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { ...mcpHeaders('tools/call', 'work'), 'CF-Connecting-IP': '203.0.113.7' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'work',
        arguments: { ms: 0 },
        _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } } }),
      },
    }),
  });

describe('the task runtime, before any task object', () => {
  it('answers -32603 and logs why when MCP_STATE_SECRET is not set, since ids signed by one isolate would be unknown to the others', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tasks = namespace();
    const response = await createRouter(server).fetch(
      createTask(),
      envWith({ MCP_STATE_SECRET: undefined, MCP_TASKS: tasks.binding }),
      ctx,
    );
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: object }).error).toEqual({ code: -32603, message: 'Internal error' });
    expect(tasks.names).toEqual([]);
    expect(errors.join('\n')).toMatch(/MCP_STATE_SECRET/);
  });

  it('counts an anonymous caller’s task creations against TASK_RATE_LIMITER by its address: past the budget, 429 with Retry-After', async () => {
    const keys: string[] = [];
    const limiter = { limit: async ({ key }: { key: string }) => (keys.push(key), { success: false }) };
    const tasks = namespace();
    const response = await createRouter(server).fetch(
      createTask(),
      envWith({ MCP_TASKS: tasks.binding, TASK_RATE_LIMITER: limiter }),
      ctx,
    );
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(keys).toEqual(['ip:203.0.113.7']);
    expect(tasks.names).toEqual([]);
  });
});
