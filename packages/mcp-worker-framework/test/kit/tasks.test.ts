/**
 * The test kit with the Tasks extension (docs/tasks.md, "What a client does"): `{ tasks: true }`
 * declares it, `tasks.get/update/cancel` name the task in `Mcp-Name`. On the Tasks fixture
 * (test/tasks/), run by the kit in workerd as wrangler builds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rpc,
  startInWorkerd,
  testClient,
  type TestClient,
  waitFor,
  type WorkerInWorkerd,
} from '../../src/testing/index';

let worker: WorkerInWorkerd;
let mcp: TestClient;
beforeAll(async () => {
  worker = await startInWorkerd({
    config: 'test/tasks/wrangler.toml',
    vars: { AUTH_MODE: 'jwt', AUTH_ISSUER: 'https://issuer.invalid', AUTH_RESOURCE: 'https://tasks.example.com/mcp' },
    secrets: { MCP_STATE_SECRET: 'kit tasks secret' },
  });
  // The fixture takes a token's text as its subject.
  mcp = testClient(worker, { tasks: true, headers: { Authorization: 'Bearer kit-user' } });
}, 120_000);
afterAll(() => worker?.dispose());

describe('the test kit and the Tasks extension', () => {
  it('gets a task for a client that declares the extension, and follows it with tasks.waitFor', async () => {
    const { result: task } = await mcp.tasks.start('work', { ms: 50 });
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    expect((await mcp.tasks.get(task.taskId)).result.taskId).toBe(task.taskId);
    expect(await mcp.tasks.waitFor(task.taskId, ['completed', 'failed'])).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'worked 50 ms in a task' }] },
    });
  });

  it("answers a task's question with tasks.update and stops one with tasks.cancel", async () => {
    const { result: asking } = await mcp.tasks.start('approve', { ms: 0 }, { capabilities: { elicitation: {} } });
    expect(await mcp.tasks.waitFor(asking.taskId, ['input_required'])).toMatchObject({
      inputRequests: { 'publish@1': { method: 'elicitation/create' } },
    });
    await mcp.tasks.update(asking.taskId, { 'publish@1': { action: 'accept', content: { publish: true } } });
    expect(await mcp.tasks.waitFor(asking.taskId, ['completed', 'failed'])).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'published draft-1' }] },
    });
    const { result: long } = await mcp.tasks.start('work', { ms: 60_000 });
    await mcp.tasks.cancel(long.taskId);
    expect((await mcp.tasks.get(long.taskId)).result.status).toBe('cancelled');
  });

  it('gets an ordinary answer without { tasks: true }', async () => {
    const plain = testClient(worker, { headers: { Authorization: 'Bearer kit-user' } });
    expect((await plain.callTool('work', { ms: 0 })).result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'worked 0 ms' }],
    });
  });

  it("declares the extension on its tasks methods whatever the client's options, and says when a call was no task", async () => {
    const plain = testClient(worker, { headers: { Authorization: 'Bearer kit-user' } });
    const { result: task } = await plain.tasks.start('work', { ms: 0 });
    expect((await plain.tasks.waitFor(task.taskId, ['completed'])).result).toMatchObject({
      content: [{ text: 'worked 0 ms in a task' }],
    });
    await expect(plain.tasks.start('plain')).rejects.toThrow('tools/call plain answered complete, not a task');
  });

  it('keeps the helpers of 1.0 working for one minor, as the one client underneath', async () => {
    const url = `${worker.url}/mcp`;
    const created = await rpc(url, 'tools/call', { name: 'work', arguments: { ms: 0 } }, { as: 'kit-user' });
    expect(created).toMatchObject({ status: 200, result: { resultType: 'task' } });
    const done = await waitFor(url, created.result?.taskId, ['completed'], { as: 'kit-user' });
    expect(done.result.content[0].text).toBe('worked 0 ms in a task');
    const refused = await rpc(url, 'tasks/get', { taskId: 'nope' }, { as: 'kit-user', tasks: false });
    expect(refused.error?.code).toBe(-32021);
  });
});
