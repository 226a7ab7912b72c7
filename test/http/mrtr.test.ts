/** Multi round-trip requests with sealed requestState (spec 2026-07-28 basic/patterns/mrtr), in workerd. */
import { describe, expect, it } from 'vitest';
import { fixtureUrl, meta, requestsTo } from '../support/mcp';

const { rpc } = requestsTo(fixtureUrl());

const ELICIT = meta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

const wizard = (extra: Record<string, unknown> = {}, greeting = 'Hi') =>
  rpc('tools/call', { params: { name: 'wizard', arguments: { greeting }, _meta: ELICIT, ...extra } });

/** Runs the first two rounds and returns the sealed state of the second. */
async function secondRound() {
  const first = await wizard();
  const second = await wizard({ inputResponses: { name: accept({ name: 'Ada' }) }, requestState: first.body.result?.requestState });
  return second;
}

describe('multi round-trip requests', () => {
  it('asks for input with an interim result that carries no caching hints', async () => {
    const { status, headers, body } = await wizard();
    expect(status).toBe(200);
    expect(headers.get('Cache-Control')).toBe('no-store');
    expect(body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?' } } },
      requestState: expect.any(String),
    });
    expect(body.result).not.toHaveProperty('ttlMs');
  });

  it('carries state across rounds through the sealed requestState, and finishes', async () => {
    const second = await secondRound();
    expect(second.body.result?.resultType).toBe('input_required');
    expect(second.body.result?.inputRequests).toHaveProperty('color');
    const third = await wizard({ inputResponses: { color: accept({ color: 'green' }) }, requestState: second.body.result?.requestState });
    expect(third.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hi, Ada! You like green.' }] });
  });

  it('keeps the state unreadable: the name never appears in the requestState', async () => {
    const second = await secondRound();
    const state = String(second.body.result?.requestState);
    expect(state).not.toContain('Ada');
    expect(atob(state.replace(/-/g, '+').replace(/_/g, '/'))).not.toContain('Ada');
  });

  it('refuses a tampered requestState with -32602', async () => {
    const state = String((await secondRound()).body.result?.requestState);
    const flipped = state.slice(0, 20) + (state[20] === 'A' ? 'B' : 'A') + state.slice(21);
    for (const requestState of [flipped, `${state}-TAMPERED`, 'not base64 at all!', '']) {
      const { body } = await wizard({ inputResponses: { color: accept({ color: 'green' }) }, requestState });
      expect(body.error?.code).toBe(-32602);
      expect(body.error?.message).toMatch(/requestState/);
    }
  });

  it('refuses state presented with other arguments or on another method', async () => {
    const state = (await secondRound()).body.result?.requestState;
    const otherArguments = await wizard({ inputResponses: { color: accept({ color: 'green' }) }, requestState: state }, 'Hello');
    expect(otherArguments.body.error?.code).toBe(-32602);
    const otherMethod = await rpc('prompts/get', { params: { name: 'greeting', arguments: { name: 'x' }, requestState: state } });
    expect(otherMethod.body.error?.code).toBe(-32602);
  });

  it('refuses an expired requestState', async () => {
    const state = (await secondRound()).body.result?.requestState;
    await new Promise((resolve) => setTimeout(resolve, 1600)); // the fixture's requestStateTtlMs is 1500
    const { body } = await wizard({ inputResponses: { color: accept({ color: 'green' }) }, requestState: state });
    expect(body.error?.code).toBe(-32602);
  });

  it('refuses malformed inputResponses with -32602', async () => {
    for (const inputResponses of [null, 'yes', { name: 12345 }]) {
      const { body } = await wizard({ inputResponses });
      expect(body.error?.code).toBe(-32602);
    }
  });

  it('never sends an input request the client did not declare: -32021 instead', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'pushy', arguments: {} } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });

  it('serves a resource read in rounds, and the retry is never cacheable', async () => {
    const url = fixtureUrl();
    const first = await rpc('resources/read', { url, params: { uri: 'test://locked', _meta: ELICIT } });
    expect(first.body.result?.resultType).toBe('input_required');
    const retry = await rpc('resources/read', { url, params: { uri: 'test://locked', _meta: ELICIT, inputResponses: { password: accept({ password: 'open sesame' }) } } });
    expect(retry.body.result).toMatchObject({ resultType: 'complete', contents: [{ text: 'the treasure' }], ttlMs: 0, cacheScope: 'private' });
    expect(retry.headers.get('Cache-Control')).toBe('no-store');
  });
});
