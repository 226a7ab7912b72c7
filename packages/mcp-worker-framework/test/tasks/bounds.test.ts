/**
 * What tasks may cost, bounded (docs/tasks.md, "Limits"), on the Tasks fixture in workerd: an
 * id the server did not mint for the caller addresses no Durable Object and leaves no storage;
 * task creation has a per-principal budget; everything a task stores has a size limit; one
 * client cannot take every listen stream. Here the fixture holds 8 listen streams (2 a client)
 * for 2 s each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents, request, rpc, startFixture, waitFor, type Fixture, type TaskCall } from './harness';
import { SHORT_TTL_MS } from './tools';

let fixture: Fixture;
let url: string;
beforeAll(async () => {
  fixture = await startFixture({ LISTEN_MAX_STREAMS: '8', LISTEN_MAX_SECONDS: '2' });
  url = fixture.url;
});
afterAll(() => fixture?.worker.dispose());

const call = (name: string, args: Record<string, unknown> = {}, options: TaskCall = {}) =>
  rpc(url, 'tools/call', { name, arguments: args }, options);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many times the fixture Worker has addressed a task object (test/tasks/worker.ts). */
const objectCalls = async () =>
  ((await (await fetch(new URL('/object-calls', url))).json()) as { objectCalls: number }).objectCalls;

const objectIds = () => fixture.worker.listDurableObjectIds('MCP_TASKS');

/** The tables in a task object's SQLite storage, the runtime's own (`_cf_…`, Miniflare's `__miniflare…`) aside: none is no storage. */
async function tablesOf(object: { name: string } | { id: string }): Promise<string[]> {
  const storage = await fixture.worker.getDurableObjectStorage('MCP_TASKS', object);
  const rows = await storage.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
  return rows.map((row) => row.name).filter((name) => !name.startsWith('_cf_') && !name.startsWith('__miniflare'));
}

/** `length` random base64url characters: an id shaped like a task id that nobody minted. */
const randomId = (length: number) =>
  Array.from(
    crypto.getRandomValues(new Uint8Array(length)),
    (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[byte % 64],
  ).join('');

describe('probes with ids the server did not mint', () => {
  it('answers task not found on every method, and on listen acknowledges none, without addressing a task object', async () => {
    const { result: created } = await call('work', { ms: 5000 });
    const taskId = created!.taskId as string;
    const tampered = taskId.slice(0, -1) + (taskId.endsWith('A') ? 'B' : 'A');
    const probes: [string, TaskCall][] = [
      [randomId(32), {}],
      [randomId(taskId.length), {}],
      [tampered, {}],
      [taskId, { as: 'mallory' }], // alice's task, asked for by someone else
    ];
    const callsBefore = await objectCalls();
    const objectsBefore = (await objectIds()).length;
    for (const [id, as] of probes) {
      for (const [method, params] of [
        ['tasks/get', { taskId: id }],
        ['tasks/update', { taskId: id, inputResponses: {} }],
        ['tasks/cancel', { taskId: id }],
      ] as const) {
        const refused = await rpc(url, method, params, as);
        expect(refused).toMatchObject({ status: 400, error: { code: -32602, data: { taskId: id } } });
      }
    }
    const listen = await request(
      url,
      'subscriptions/listen',
      { notifications: { taskIds: probes.map(([id]) => id) } },
      { as: 'mallory' },
    );
    const messages = await readEvents(listen, (message) => 'result' in message); // the fixture ends it after 2 s
    expect(messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [] } },
    });
    expect(await objectCalls()).toBe(callsBefore);
    expect((await objectIds()).length).toBe(objectsBefore);
    expect((await rpc(url, 'tasks/get', { taskId })).result?.status).toBe('working');
    await rpc(url, 'tasks/cancel', { taskId });
  });

  it('leaves no storage behind an immediate result, nor behind a lookup of an expired task', async () => {
    const before = new Set(await objectIds());
    expect((await call('quick')).result?.resultType).toBe('complete');
    // workerd keeps a file for every object it started; what matters is that nothing is in it.
    const started = (await objectIds()).filter((id) => !before.has(id));
    expect(started).toHaveLength(1);
    expect(await tablesOf({ id: started[0]! })).toEqual([]);

    const { result: created } = await call('work', { ms: 60_000 }, { query: 'short-lived' });
    const taskId = created!.taskId as string;
    await sleep(SHORT_TTL_MS + 1000);
    expect(await tablesOf({ name: taskId })).toEqual([]); // the alarm deleted everything
    await fixture.worker.evictDurableObject('MCP_TASKS', { name: taskId });
    expect((await rpc(url, 'tasks/get', { taskId }, { query: 'short-lived' })).error?.code).toBe(-32602);
    expect(await tablesOf({ name: taskId })).toEqual([]);
  });
});

describe('what a task keeps is bounded', () => {
  /** Asserts a refusal with -32602 that names `what`, made before any task object was addressed. */
  async function refusedBeforeStorage(
    attempt: () => Promise<{ status: number; error?: { code: number; message: string } }>,
    what: RegExp,
  ) {
    const before = await objectCalls();
    const refused = await attempt();
    expect(refused).toMatchObject({ status: 400, error: { code: -32602, message: expect.stringMatching(what) } });
    expect(await objectCalls()).toBe(before);
  }

  it('refuses, before any task object, client capabilities over 16 KiB, arguments over 256 KiB and input responses over 256 KiB', async () => {
    await refusedBeforeStorage(
      () => call('work', { ms: 0 }, { capabilities: { experimental: { blob: 'x'.repeat(20_000) } } }),
      /client.*16384 bytes/,
    );
    await refusedBeforeStorage(() => call('work', { ms: 0, pad: 'x'.repeat(300_000) }), /arguments.*262144 bytes/);
    const answer = { action: 'accept', content: { publish: true, pad: 'x'.repeat(300_000) } };
    await refusedBeforeStorage(
      () => rpc(url, 'tools/call', { name: 'work', arguments: { ms: 0 }, inputResponses: { publish: answer } }),
      /inputResponses.*262144 bytes/,
    );
  });

  it('refuses a tasks/update over 256 KiB, and answers that together pass 256 KiB, leaving the task waiting', async () => {
    const { result: approve } = await call('approve', { ms: 0 }, { capabilities: { elicitation: {} } });
    await waitFor(url, approve!.taskId, ['input_required']);
    const huge = { action: 'accept', content: { publish: true, pad: 'x'.repeat(300_000) } };
    await refusedBeforeStorage(
      () => rpc(url, 'tasks/update', { taskId: approve!.taskId, inputResponses: { 'publish@1': huge } }),
      /inputResponses.*262144 bytes/,
    );
    expect((await rpc(url, 'tasks/get', { taskId: approve!.taskId })).result).toMatchObject({
      status: 'input_required',
      inputRequests: { 'publish@1': expect.any(Object) },
    });

    const { result: twice } = await call('asks_twice', {}, { capabilities: { elicitation: {} } });
    const taskId = twice!.taskId as string;
    await waitFor(url, taskId, ['input_required']);
    const large = { action: 'accept', content: { publish: true, pad: 'x'.repeat(200_000) } };
    expect((await rpc(url, 'tasks/update', { taskId, inputResponses: { 'first@1': large } })).result?.resultType).toBe(
      'complete',
    );
    const second = await rpc(url, 'tasks/update', { taskId, inputResponses: { 'second@1': large } });
    expect(second).toMatchObject({
      status: 400,
      error: { code: -32602, message: expect.stringMatching(/inputResponses.*262144 bytes/) },
    });
    expect((await rpc(url, 'tasks/get', { taskId })).result).toMatchObject({
      status: 'input_required',
      inputRequests: { 'second@1': expect.any(Object) },
    });
  });

  it('completes with a tool error, not the result, when the result is over 1 MiB of UTF-8', async () => {
    // 600,000 characters of three bytes each: under a million characters, 1.8 MB stored.
    const { result: created } = await call('sized', { char: '€', count: 600_000 });
    const done = await waitFor(url, created!.taskId, ['completed', 'failed']);
    expect(done).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: expect.stringMatching(/too large to keep/) }] },
    });
  });

  it('fails the task with -32603, never storing it, when what the handler asks to keep would pass the row limit', async () => {
    const { result: created } = await call('hoards', { count: 2_100_000 }, { capabilities: { elicitation: {} } });
    const failed = await waitFor(url, created!.taskId, ['failed', 'input_required']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
  });
});

describe('task creation budget', () => {
  it('refuses a principal past its budget with 429 and Retry-After, before any task object, while another principal still creates tasks', async () => {
    const budget = 30; // TASK_RATE_LIMITER in test/tasks/wrangler.toml
    // The local limiter counts in fixed windows: a run that straddles the end of one is refused
    // later, never sooner; 2 × budget + 1 calls in under a minute must overflow one window.
    let accepted = 0;
    let before = 0;
    let refused: Response | undefined;
    for (let i = 0; i <= 2 * budget && !refused; i++) {
      before = await objectCalls();
      const response = await request(url, 'tools/call', { name: 'work', arguments: { ms: 0 } }, { as: 'eager' });
      if (response.status === 429) refused = response;
      else {
        expect(((await response.json()) as { result?: { resultType?: string } }).result?.resultType).toBe('task');
        accepted++;
      }
    }
    expect(accepted).toBeGreaterThanOrEqual(budget);
    expect(refused?.status).toBe(429);
    expect(refused!.headers.get('Retry-After')).toBe('60');
    expect(((await refused!.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/Too many requests/),
    });
    expect(await objectCalls()).toBe(before);
    expect((await call('work', { ms: 0 }, { as: 'patient' })).result?.resultType).toBe('task');
  });
});

describe('listen streams', () => {
  const listen = (as: string, taskIds: string[] = []) =>
    request(url, 'subscriptions/listen', { notifications: { taskIds } }, { as });

  it('gives one client at most a quarter of the streams: past its share, 429 with Retry-After before any task object, while another client still gets one', async () => {
    const { result: created } = await call('work', { ms: 10_000 }, { as: 'hog' });
    const taskId = created!.taskId as string;
    const held = [await listen('hog', [taskId]), await listen('hog', [taskId])];
    expect(held.map((r) => r.status)).toEqual([200, 200]);
    const before = await objectCalls();
    const refused = await listen('hog', [taskId]);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBeTruthy();
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(await objectCalls()).toBe(before);
    const other = await listen('bystander');
    expect(other.status).toBe(200);
    await Promise.all([...held, other].map((r) => r.text())); // each ends after the fixture's 2 s
    await rpc(url, 'tasks/cancel', { taskId }, { as: 'hog' });
  });

  it('refuses a newcomer once the isolate holds its cap, before any task object', async () => {
    const { result: created } = await call('work', { ms: 10_000 }, { as: 'newcomer' });
    const taskId = created!.taskId as string;
    const full = await Promise.all(['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd'].map((as) => listen(as)));
    expect(full.map((r) => r.status)).toEqual(Array(8).fill(200));
    const before = await objectCalls();
    const refused = await listen('newcomer', [taskId]);
    expect(refused.status).toBe(429);
    expect(await objectCalls()).toBe(before);
    await Promise.all(full.map((r) => r.text()));
    await rpc(url, 'tasks/cancel', { taskId }, { as: 'newcomer' });
  });
});
