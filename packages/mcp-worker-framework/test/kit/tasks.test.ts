/**
 * The test kit with the Tasks extension (docs/tasks.md, "What a client does"): `{ tasks: true }`
 * declares it, `tasks.get/update/cancel` name the task in `Mcp-Name`. On the Tasks fixture
 * (test/tasks/), run by the kit in workerd as wrangler builds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, testClient, type TestClient, type WorkerInWorkerd } from '../../src/testing/index';

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

async function settled(taskId: string) {
  for (let tries = 0; tries < 200; tries++) {
    const { result } = await mcp.tasks.get(taskId);
    if (result.status !== 'working') return result;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`task ${taskId} never settled`);
}

describe('the test kit and the Tasks extension', () => {
  it('gets a task for a client that declares the extension, and follows it with tasks.get', async () => {
    const { result: task } = await mcp.callTool('work', { ms: 50 });
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await settled(task.taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'worked 50 ms in a task' }] },
    });
  });

  it("answers a task's question with tasks.update and stops one with tasks.cancel", async () => {
    const { result: asking } = await mcp.callTool('approve', { ms: 0 }, { capabilities: { elicitation: {} } });
    expect(await settled(asking.taskId)).toMatchObject({ status: 'input_required' });
    await mcp.tasks.update(asking.taskId, { 'publish@1': { action: 'accept', content: { publish: true } } });
    expect(await settled(asking.taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'published draft-1' }] },
    });
    const { result: long } = await mcp.callTool('work', { ms: 60_000 });
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
});
