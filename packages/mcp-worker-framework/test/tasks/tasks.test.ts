/**
 * The Tasks extension (spec extensions/tasks) on Durable Objects, in workerd: the task
 * fixture Worker (test/tasks/worker.ts) with one object per task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meta, requestsTo, sseMessages } from '../support/mcp';
import { readEvents, request, rpc, startFixture, TASKS, waitFor, type Fixture } from './harness';
import { textOf } from '../../src/testing';
import { SHORT_TTL_MS } from './tools';

let fixture: Fixture;
let url: string;
beforeAll(async () => {
  fixture = await startFixture();
  url = fixture.url;
});
afterAll(() => fixture?.worker.dispose());

const call = (name: string, args: Record<string, unknown> = {}, options = {}) =>
  rpc(url, 'tools/call', { name, arguments: args }, options);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The status the task's Durable Object has stored, read from its SQLite storage directly; undefined when nothing is. */
async function storedStatus(taskId: string): Promise<string | undefined> {
  const storage = await fixture.worker.getDurableObjectStorage('MCP_TASKS', { name: taskId });
  const tables = await storage.exec<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'task'",
  );
  if (tables.length === 0) return undefined;
  const rows = await storage.exec<{ status: string }>(
    "SELECT json_extract(record, '$.task.status') AS status FROM task",
  );
  return rows[0]?.status;
}

describe('a task tool with a Standard Schema', () => {
  it('reads the arguments again in the task object: the transform reaches the handler', async () => {
    const { result } = await call('parsed', { day: '2026-12-01' });
    expect(result?.resultType).toBe('task');
    const done = await waitFor(url, result!.taskId, ['completed', 'failed']);
    expect(done.result?.structuredContent).toEqual({ isDate: true, year: 2026 });
  });

  it('refuses invalid arguments before any task, with a tool error naming the field', async () => {
    const { result } = await call('parsed', { day: 5 });
    expect(result).toMatchObject({ resultType: 'complete', isError: true });
    expect(result?.content[0].text).toMatch(/^Invalid arguments for tool parsed: \/day: /);
  });
});

describe('task creation', () => {
  it('runs the handler with the caller that created the task: its subject, kind, scopes and claims', async () => {
    const { result } = await call('whoami', {}, { as: 'carol' });
    expect(result?.resultType).toBe('task');
    const done = await waitFor(url, result!.taskId, ['completed', 'failed'], { as: 'carol' });
    expect(done.result?.structuredContent).toEqual({
      caller: { subject: 'carol', kind: 'person', scopes: ['tasks:run'], claims: { name: 'carol' } },
    });
  });

  it('advertises the extension in server/discover', async () => {
    const { result } = await rpc(url, 'server/discover', {});
    expect(result?.capabilities.extensions).toEqual({ [TASKS]: {} });
  });

  it('answers a declaring client with a flat CreateTaskResult, stored before the answer left', async () => {
    const { result } = await call('work', { ms: 5000 });
    expect(result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 50 });
    expect(result?.taskId).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(Date.parse(result!.createdAt)).not.toBeNaN();
    expect(result).not.toHaveProperty('result');
    expect(await storedStatus(result!.taskId)).toBe('working');
    const got = await rpc(url, 'tasks/get', { taskId: result!.taskId });
    expect(got.result).toMatchObject({
      resultType: 'complete',
      taskId: result!.taskId,
      status: 'working',
      statusMessage: 'warming up',
    });
    await rpc(url, 'tasks/cancel', { taskId: result!.taskId });
  });

  it('mints a different unguessable id for every task', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => (await call('work', { ms: 0 })).result?.taskId as string));
    expect(new Set(ids).size).toBe(3);
  });

  it('answers directly, with no task, when the handler settles within its immediate window', async () => {
    const { result } = await call('quick');
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'done quickly' }] });
    expect(result).not.toHaveProperty('taskId');
  });

  it('runs a task tool directly for a client without the extension, and refuses it where a task is required', async () => {
    const direct = await call('work', { ms: 0 }, { tasks: false });
    expect(direct.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'worked 0 ms' }] });
    const refused = await call('only_task', {}, { tasks: false });
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });

  it('never makes a task of an ordinary tool', async () => {
    const { result } = await call('plain');
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'plain' }] });
  });

  it('lists task tools with only the spec fields of a Tool', async () => {
    const { result } = await rpc(url, 'tools/list', {});
    const quick = result?.tools.find((t: { name: string }) => t.name === 'quick');
    expect(Object.keys(quick).sort()).toEqual(['description', 'inputSchema', 'name']);
  });
});

describe('task life', () => {
  it('goes working → input_required → working → completed, and the answer reaches the handler with its state', async () => {
    const { result: created } = await call('approve', { ms: 300 }, { capabilities: { elicitation: {} } });
    const taskId = created!.taskId as string;
    expect((await rpc(url, 'tasks/get', { taskId })).result?.status).toBe('working');
    const waiting = await waitFor(url, taskId, ['input_required']);
    expect(waiting.inputRequests).toEqual({
      'publish@1': { method: 'elicitation/create', params: expect.objectContaining({ message: 'Publish it?' }) },
    });
    const ack = await rpc(url, 'tasks/update', {
      taskId,
      inputResponses: { 'publish@1': { action: 'accept', content: { publish: true } } },
    });
    expect(ack.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const done = await waitFor(url, taskId, ['completed', 'failed', 'cancelled']);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'published draft-1' }] },
    });
    expect(done).not.toHaveProperty('inputRequests');
  });

  it('ignores answers to keys that are not outstanding, and never reuses a key', async () => {
    const { result: created } = await call('approve', { ms: 0 }, { capabilities: { elicitation: {} } });
    const taskId = created!.taskId as string;
    await waitFor(url, taskId, ['input_required']);
    // The handler's own key is not the key the task gave the client: ignored.
    await rpc(url, 'tasks/update', {
      taskId,
      inputResponses: { publish: { action: 'accept', content: { publish: true } } },
    });
    expect((await rpc(url, 'tasks/get', { taskId })).result).toMatchObject({
      status: 'input_required',
      inputRequests: { 'publish@1': expect.any(Object) },
    });
    // Declined: the handler asks again, under a new key.
    await rpc(url, 'tasks/update', { taskId, inputResponses: { 'publish@1': { action: 'decline' } } });
    expect(Object.keys((await pollUntilKey(taskId, 'publish@2')).inputRequests)).toEqual(['publish@2']);
    // A late answer to the old key changes nothing.
    await rpc(url, 'tasks/update', {
      taskId,
      inputResponses: { 'publish@1': { action: 'accept', content: { publish: true } } },
    });
    expect(Object.keys((await rpc(url, 'tasks/get', { taskId })).result?.inputRequests)).toEqual(['publish@2']);
    await rpc(url, 'tasks/update', {
      taskId,
      inputResponses: { 'publish@2': { action: 'accept', content: { publish: false } } },
    });
    expect(textOf((await waitFor(url, taskId, ['completed'])).result ?? { content: [] })).toBe('kept draft-1');
  });

  it('fails the task when the handler asks for input the creating client did not declare', async () => {
    const { result: created } = await call('approve', { ms: 0 });
    const failed = await waitFor(url, created!.taskId, ['failed', 'input_required']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32021 } });
  });

  it('reports a tool error as completed with isError', async () => {
    const { result: created } = await call('refuses', { ms: 100 });
    const done = await waitFor(url, created!.taskId, ['completed', 'failed']);
    expect(done).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: 'cannot do that' }] },
    });
    expect(done).not.toHaveProperty('error');
  });

  it('reports a protocol error as failed with the JSON-RPC error and no result', async () => {
    const { result: created } = await call('crashes', { ms: 100 });
    const failed = await waitFor(url, created!.taskId, ['completed', 'failed']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    expect(failed).not.toHaveProperty('result');
  });
});

/** How many times the handlers counting under `key` have run, in a task object or not (test/tasks/worker.ts). */
const handlerRuns = async (key: string) =>
  ((await (await fetch(new URL(`/handler-runs?key=${key}`, url))).json()) as { runs: number }).runs;

/** Each way a run can fail after its handler answered: a result JSON cannot carry, or an output check that throws. */
const FAULTS: [string, string, Record<string, string>][] = [
  ['a BigInt in the result', 'unsendable', { fault: 'bigint' }],
  ['a cycle in the result', 'unsendable', { fault: 'cycle' }],
  ['a result whose toJSON gives nothing', 'unsendable', { fault: 'no-json' }],
  ['an output check that throws', 'check_throws', {}],
];

describe("a task's handler", () => {
  it('runs once, however often the task is polled while it is still working', async () => {
    const key = crypto.randomUUID();
    const { result: created } = await call('counted_work', { key, ms: 1500 });
    const taskId = created!.taskId as string;
    const whileWorking: string[] = [];
    for (let poll = 0; poll < 5; poll++) {
      whileWorking.push((await rpc(url, 'tasks/get', { taskId })).result?.status);
      await sleep(20);
    }
    // Polled while working, each poll an activation of the object that could start the run again.
    expect(whileWorking.filter((status) => status === 'working').length).toBeGreaterThanOrEqual(3);
    expect((await waitFor(url, taskId, ['completed'])).status).toBe('completed');
    expect(await handlerRuns(key)).toBe(1);
  });
});

describe('a failure after the handler', () => {
  for (const [fault, tool, args] of FAULTS) {
    it(`fails the task once, -32603, and polls never run the handler again: ${fault}`, async () => {
      const key = crypto.randomUUID();
      const { result: created } = await call(tool, { key, ...args });
      expect(created?.resultType).toBe('task');
      const taskId = created!.taskId as string;
      const statuses: string[] = [];
      for (let poll = 0; poll < 5; poll++) {
        statuses.push((await rpc(url, 'tasks/get', { taskId })).result?.status);
        await sleep(50);
      }
      expect(await handlerRuns(key)).toBe(1);
      expect(statuses.at(-1)).toBe('failed');
      const failed = await waitFor(url, taskId, ['failed']);
      expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
      expect(failed).not.toHaveProperty('result');
      expect(await storedStatus(taskId)).toBe('failed');
    });

    it(`answers a direct call -32603 with the request's id, nothing from inside: ${fault}`, async () => {
      const key = crypto.randomUUID();
      const response = await request(url, 'tools/call', { name: tool, arguments: { key, ...args } }, { tasks: false });
      expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32603, message: 'Internal error' },
      });
      expect(await handlerRuns(key)).toBe(1);
    });
  }

  it('ends a direct call that streams progress with -32603 for its request, a result JSON cannot carry', async () => {
    const key = crypto.randomUUID();
    const response = await requestsTo(url).post('tools/call', {
      params: {
        name: 'unsendable',
        arguments: { key, fault: 'bigint' },
        _meta: meta({ progressToken: 'p1' }),
      },
      headers: { Authorization: 'Bearer alice' },
    });
    expect(response.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
    const messages = await sseMessages(response);
    expect(messages.map((message) => message.method ?? message.id)).toEqual(['notifications/progress', 1]);
    expect(messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
    expect(await handlerRuns(key)).toBe(1);
  });

  it('fails the task once when the state it asks to keep cannot become JSON', async () => {
    const key = crypto.randomUUID();
    const { result: created } = await call('keeps_unsendable', { key }, { capabilities: { elicitation: {} } });
    const taskId = created!.taskId as string;
    for (let poll = 0; poll < 5; poll++) await rpc(url, 'tasks/get', { taskId });
    const failed = await waitFor(url, taskId, ['failed', 'input_required']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    expect(await storedStatus(taskId)).toBe('failed');
    expect(await handlerRuns(key)).toBe(1);
  });

  it('keeps a status message that is not a string as text, and completes once', async () => {
    const key = crypto.randomUUID();
    const { result: created } = await call('odd_status', { key });
    const taskId = created!.taskId as string;
    for (let poll = 0; poll < 5; poll++) await rpc(url, 'tasks/get', { taskId });
    const done = await waitFor(url, taskId, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'reported' }] } });
    expect(await storedStatus(taskId)).toBe('completed');
    expect(await handlerRuns(key)).toBe(1);
  });

  it('answers -32603 within the immediate window, and keeps no task', async () => {
    const key = crypto.randomUUID();
    const response = await request(url, 'tools/call', {
      name: 'unsendable_at_once',
      arguments: { key, fault: 'bigint' },
    });
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(await handlerRuns(key)).toBe(1);
  });
});

/** Polls until the task's outstanding requests include `key` (bounded by waitFor's limit). */
async function pollUntilKey(taskId: string, key: string): Promise<Record<string, any>> {
  for (let i = 0; i < 200; i++) {
    const task = await waitFor(url, taskId, ['input_required']);
    if (Object.hasOwn(task.inputRequests ?? {}, key)) return task;
    await sleep(25);
  }
  throw new Error(`key ${key} never appeared`);
}

describe('cancellation', () => {
  it('acks with an empty result, stops the work and stays cancelled after the work would have ended', async () => {
    const { result: created } = await call('work', { ms: 400 });
    const ack = await rpc(url, 'tasks/cancel', { taskId: created!.taskId });
    expect(Object.keys(ack.result!).sort()).toEqual(['_meta', 'resultType']);
    expect((await rpc(url, 'tasks/get', { taskId: created!.taskId })).result?.status).toBe('cancelled');
    await sleep(600);
    expect((await rpc(url, 'tasks/get', { taskId: created!.taskId })).result).toMatchObject({ status: 'cancelled' });
  });

  it('leaves a completed task as it is, with the same ack', async () => {
    const { result: created } = await call('work', { ms: 0 });
    await waitFor(url, created!.taskId, ['completed']);
    const ack = await rpc(url, 'tasks/cancel', { taskId: created!.taskId });
    expect(ack.result?.resultType).toBe('complete');
    expect((await rpc(url, 'tasks/get', { taskId: created!.taskId })).result).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'worked 0 ms in a task' }] },
    });
  });
});

describe('access', () => {
  it('refuses another principal exactly as an unknown task, on every method', async () => {
    const { result: created } = await call('work', { ms: 5000 });
    const taskId = created!.taskId as string;
    const unknown = await rpc(url, 'tasks/get', { taskId: 'A'.repeat(32) }, { as: 'bob' });
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      const refused = await rpc(url, method, params, { as: 'bob' });
      expect(refused.error).toMatchObject({ code: -32602, message: unknown.error?.message });
    }
    expect((await rpc(url, 'tasks/get', { taskId })).result?.status).toBe('working');
    await rpc(url, 'tasks/cancel', { taskId });
  });

  it('is refused another principal by the task object itself, not only by the task-id check in front of it', async () => {
    const { result: created } = await call('work', { ms: 5000 });
    const taskId = created!.taskId as string;
    const asked = (principal: string) =>
      fetch(new URL(`/object-as?taskId=${taskId}&principal=${principal}`, url)).then((r) => r.json());
    expect(await asked('bob')).toEqual({ get: null, update: 'unknown', cancel: false, watch: false });
    // The creator is still answered, and bob's cancel cancelled nothing.
    expect(await asked('alice')).toMatchObject({ get: { taskId, status: 'working' }, update: 'updated' });
    expect((await rpc(url, 'tasks/get', { taskId })).result?.status).toBe('cancelled');
  });

  it('answers -32602 for an unknown or malformed task id, and -32021 to a client without the extension', async () => {
    expect((await rpc(url, 'tasks/get', { taskId: 'no-such-task' })).error?.code).toBe(-32602);
    expect((await rpc(url, 'tasks/get', { taskId: 42 }, { headers: { 'Mcp-Name': '42' } })).error?.code).toBe(-32602);
    const gated = await rpc(url, 'tasks/get', { taskId: 'A'.repeat(32) }, { tasks: false });
    expect(gated.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });

  it('requires Mcp-Name to carry the task id', async () => {
    const taskId = 'A'.repeat(32);
    const mismatch = await rpc(url, 'tasks/get', { taskId }, { headers: { 'Mcp-Name': 'B'.repeat(32) } });
    expect(mismatch).toMatchObject({ status: 400, error: { code: -32020 } });
  });
});

describe('expiry', () => {
  it('deletes the task when its time to live is over, by alarm', async () => {
    const { result: created } = await call('work', { ms: 60_000 }, { query: 'short-lived' });
    expect(created?.ttlMs).toBe(SHORT_TTL_MS);
    const taskId = created!.taskId as string;
    expect((await rpc(url, 'tasks/get', { taskId }, { query: 'short-lived' })).result?.status).toBe('working');
    await sleep(SHORT_TTL_MS + 1000);
    expect(await storedStatus(taskId)).toBeUndefined();
    expect((await rpc(url, 'tasks/get', { taskId }, { query: 'short-lived' })).error?.code).toBe(-32602);
  });
});

describe('status notifications', () => {
  it('streams notifications/tasks from the task object on subscriptions/listen, until the task ends', async () => {
    const { result: created } = await call('approve', { ms: 200 }, { capabilities: { elicitation: {} } });
    const taskId = created!.taskId as string;
    const listen = await request(url, 'subscriptions/listen', { notifications: { taskIds: [taskId, 'A'.repeat(32)] } });
    const answered = waitFor(url, taskId, ['input_required']).then(() =>
      rpc(url, 'tasks/update', {
        taskId,
        inputResponses: { 'publish@1': { action: 'accept', content: { publish: true } } },
      }),
    );
    const messages = await readEvents(listen, (m) => m.params?.status === 'completed');
    await answered;
    const [ack, ...notifications] = messages;
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });
    expect(notifications.every((n) => n.method === 'notifications/tasks' && n.params?.taskId === taskId)).toBe(true);
    expect(notifications.map((n) => n.params?._meta)).toEqual(
      notifications.map(() => expect.objectContaining({ 'io.modelcontextprotocol/subscriptionId': 1 })),
    );
    const statuses = notifications.map((n) => n.params?.status);
    expect(statuses[0]).toBe('working');
    expect(statuses).toContain('input_required');
    expect(notifications.at(-1)?.params).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'published draft-1' }] },
    });
  });

  it('refuses task notifications to a client without the extension', async () => {
    const { error } = await rpc(
      url,
      'subscriptions/listen',
      { notifications: { taskIds: ['A'.repeat(32)] } },
      { tasks: false },
    );
    expect(error?.code).toBe(-32021);
  });
});

describe('restart', () => {
  it('runs a task again from its stored record when the object restarted mid-run (at least once)', async () => {
    const { result: created } = await call('work', { ms: 1500 });
    const taskId = created!.taskId as string;
    // Reloading the Workers restarts every object; storage stays, the running handler is gone.
    await fixture.worker.restart();
    const resumed = await waitFor(url, taskId, ['completed', 'failed']);
    expect(resumed).toMatchObject({ status: 'completed', result: { content: [{ text: 'worked 1500 ms in a task' }] } });
  });
});
