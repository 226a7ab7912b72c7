/**
 * The example task tool (src/tools/compile-report.ts) with tasks on (./worker.ts: src/index.ts with
 * `extensions: [tasks()]`), and the default Worker staying storage-free.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import worker from '../src/index';
import {
  atUrl,
  startInWorkerd,
  TASKS,
  type TestClient,
  testClient,
  textOf,
  type WorkerInWorkerd,
} from 'mcp-worker-framework/testing';

let withTasks: WorkerInWorkerd;
let mcp: TestClient;
beforeAll(async () => {
  // Task ids are signed with the state secret, which a deployment sets with `wrangler secret put`.
  withTasks = await startInWorkerd({
    config: 'test/wrangler.toml',
    secrets: { MCP_STATE_SECRET: 'compile-report test secret' },
  });
  mcp = testClient(atUrl(`${withTasks.url}/mcp`));
});
afterAll(() => withTasks?.dispose());

const ELICITATION = { capabilities: { elicitation: {} } };
const SLOWLY = { everyMs: 250 }; // the template's rate limiter counts every local request

describe('compile_report (tasks on)', () => {
  it('runs as a task that asks once, then finishes with the answer', async () => {
    const { result: created } = await mcp.tasks.start('compile_report', { topic: 'tides' }, ELICITATION);
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const asking = await mcp.tasks.waitFor(created.taskId, ['input_required'], SLOWLY);
    expect(asking.inputRequests?.['appendix@1']).toMatchObject({ method: 'elicitation/create' });
    await mcp.tasks.update(created.taskId, {
      'appendix@1': { action: 'accept', content: { appendix: true } },
    });
    const done = await mcp.tasks.waitFor(created.taskId, ['completed', 'failed'], SLOWLY);
    expect(done.status).toBe('completed');
    expect(textOf(done.result ?? { content: [] })).toMatch(/^# Report: tides[\s\S]*## Appendix/);
  });

  it('is an ordinary multi round-trip call for a client without the extension', async () => {
    const first = await mcp.callTool('compile_report', { topic: 'tides' }, ELICITATION);
    expect(first.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    const second = await mcp.callTool(
      'compile_report',
      { topic: 'tides' },
      { ...ELICITATION, requestState: first.result.requestState, inputResponses: { appendix: { action: 'decline' } } },
    );
    expect(textOf(second.result)).toMatch(/^# Report: tides/);
    expect(textOf(second.result)).not.toContain('Appendix');
  });

  it('is an ordinary call in the default, storage-free configuration, even for a client that declares the extension', async () => {
    const first = await testClient(worker, { capabilities: { elicitation: {}, extensions: { [TASKS]: {} } } }).callTool(
      'compile_report',
      { topic: 'tides' },
    );
    expect(first.result).toMatchObject({ resultType: 'input_required' });
  });

  it('advertises the extension here, and not in the default, storage-free configuration', async () => {
    // Beside MCP Apps and Skills, which the example server serves in both (its world clock has a view; skills/ has a skill).
    const both = { 'io.modelcontextprotocol/skills': { directoryRead: true }, 'io.modelcontextprotocol/ui': {} };
    expect((await mcp.discover()).result.capabilities.extensions).toEqual({ ...both, [TASKS]: {} });
    expect((await testClient(worker).discover()).result.capabilities.extensions).toEqual(both);
  });
});
