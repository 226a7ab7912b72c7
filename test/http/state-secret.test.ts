/**
 * Secure by default: with no MCP_STATE_SECRET nothing in the source can forge `requestState`.
 * Two fresh instances (two workerd processes, as two isolates of a deployment) each seal with a
 * random key of their own, so each refuses the other's state (spec 2026-07-28
 * basic/patterns/mrtr: the server must verify the state it receives).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, serveWithWorkerd, type DirectWorker } from '../../scripts/workerd.mjs';
import { meta, rpc } from '../support/mcp';

const ELICIT = meta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
const config = 'test/fixtures/wrangler.toml';
let first: DirectWorker;
let second: DirectWorker;

beforeAll(async () => {
  const bundle = buildBundle(config);
  // An empty secret is what a deployment that never ran `wrangler secret put` has.
  [first, second] = await Promise.all([serveWithWorkerd({ config, bundle, vars: { MCP_STATE_SECRET: '' } }), serveWithWorkerd({ config, bundle, vars: { MCP_STATE_SECRET: '' } })]);
});
afterAll(() => Promise.all([first?.stop(), second?.stop()]));

const wizard = (worker: DirectWorker, extra: Record<string, unknown> = {}) =>
  rpc('tools/call', { url: `${worker.url}/mcp`, params: { name: 'wizard', arguments: { greeting: 'Hi' }, _meta: ELICIT, ...extra } });

const retry = (worker: DirectWorker, requestState: unknown) =>
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
    for (const { body } of own) expect(body.result).toMatchObject({ resultType: 'input_required', inputRequests: { color: expect.any(Object) } });
  });

  it('says so once per isolate in a warning', async () => {
    await wizard(first);
    const warnings = first.logs().match(/MCP_STATE_SECRET is not set/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(first.logs()).toMatch(/random key of this isolate/);
  });
});
