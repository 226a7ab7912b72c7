/**
 * Secure by default: with no MCP_STATE_SECRET nothing in the source can forge `requestState`.
 * Two fresh instances (two workerd processes, as two isolates of a deployment) each seal with a
 * random key of their own, so each refuses the other's state (spec 2026-07-28
 * basic/patterns/mrtr: the server must verify the state it receives).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { meta, requestsTo } from '../support/mcp';

const ELICIT = meta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
let first: WorkerInWorkerd;
let second: WorkerInWorkerd;

beforeAll(async () => {
  // No MCP_STATE_SECRET, as a deployment that never ran `wrangler secret put`.
  const noSecret = () => startInWorkerd({ config: 'test/fixtures/wrangler.toml' });
  [first, second] = await Promise.all([noSecret(), noSecret()]);
});
afterAll(() => Promise.all([first?.dispose(), second?.dispose()]));

const wizard = (worker: WorkerInWorkerd, extra: Record<string, unknown> = {}) =>
  requestsTo(`${worker.url}/mcp`).rpc('tools/call', {
    params: { name: 'wizard', arguments: { greeting: 'Hi' }, _meta: ELICIT, ...extra },
  });

const retry = (worker: WorkerInWorkerd, requestState: unknown) =>
  wizard(worker, { inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } }, requestState });

describe('requestState without MCP_STATE_SECRET', () => {
  it('is refused by another fresh instance, in both directions, and accepted by the one that sealed it', async () => {
    const fromFirst = (await wizard(first)).body.result?.requestState;
    const fromSecond = (await wizard(second)).body.result?.requestState;
    expect(typeof fromFirst).toBe('string');
    expect(typeof fromSecond).toBe('string');

    const forged = [await retry(second, fromFirst), await retry(first, fromSecond)];
    for (const { status, body } of forged) {
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/requestState is invalid/) });
    }
    const own = [await retry(first, fromFirst), await retry(second, fromSecond)];
    for (const { body } of own)
      expect(body.result).toMatchObject({ resultType: 'input_required', inputRequests: { color: expect.any(Object) } });
  });

  it('says so once per isolate in a warning', async () => {
    await wizard(first);
    const warnings = first.logs().filter((line) => line.includes('MCP_STATE_SECRET is not set'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/random key of this isolate/);
  });
});
