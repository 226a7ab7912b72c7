/** Multi round-trip requests with sealed requestState (spec 2026-07-28 basic/patterns/mrtr), in workerd. */
import { describe, expect, it } from 'vitest';
import { atUrl, testClient, type CallOptions } from '../../src/testing';
import { fixtureUrl } from '../support/mcp';

/** A client that declares elicitation, as the wizard needs. */
const mcp = testClient(atUrl(fixtureUrl()), { capabilities: { elicitation: {} } });
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

const wizard = (round: CallOptions = {}, greeting = 'Hi') => mcp.callTool('wizard', { greeting }, round);

/** Runs the first two rounds and returns the answer of the second. */
async function secondRound() {
  const first = await wizard();
  return wizard({ inputResponses: { name: accept({ name: 'Ada' }) }, requestState: first.result.requestState });
}

describe('multi round-trip requests', () => {
  it('asks for input with an interim result that carries no caching hints', async () => {
    const { status, headers, result } = await wizard();
    expect(status).toBe(200);
    expect(headers.get('Cache-Control')).toBe('no-store');
    expect(result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?' } } },
      requestState: expect.any(String),
    });
    expect(result).not.toHaveProperty('ttlMs');
  });

  it('carries state across rounds through the sealed requestState, and finishes', async () => {
    const second = await secondRound();
    expect(second.result.resultType).toBe('input_required');
    expect(second.result.inputRequests).toHaveProperty('color');
    const third = await wizard({
      inputResponses: { color: accept({ color: 'green' }) },
      requestState: second.result.requestState,
    });
    expect(third.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Hi, Ada! You like green.' }],
    });
  });

  it('keeps the state unreadable: the name never appears in the requestState', async () => {
    const second = await secondRound();
    const state = String(second.result.requestState);
    expect(state).not.toContain('Ada');
    expect(atob(state.replace(/-/g, '+').replace(/_/g, '/'))).not.toContain('Ada');
  });

  it('refuses a tampered requestState with -32602', async () => {
    const state = String((await secondRound()).result.requestState);
    const flipped = state.slice(0, 20) + (state[20] === 'A' ? 'B' : 'A') + state.slice(21);
    for (const requestState of [flipped, `${state}-TAMPERED`, 'not base64 at all!', '']) {
      const refused = wizard({ inputResponses: { color: accept({ color: 'green' }) }, requestState });
      await expect(refused).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/requestState/) });
    }
  });

  it('refuses state presented with other arguments or on another method', async () => {
    const { requestState } = (await secondRound()).result;
    const otherArguments = wizard({ inputResponses: { color: accept({ color: 'green' }) }, requestState }, 'Hello');
    await expect(otherArguments).rejects.toMatchObject({ code: -32602 });
    await expect(mcp.getPrompt('greeting', { name: 'x' }, { requestState })).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses an expired requestState', async () => {
    const { requestState } = (await secondRound()).result;
    await new Promise((resolve) => setTimeout(resolve, 1600)); // the fixture's requestStateTtlMs is 1500
    await expect(wizard({ inputResponses: { color: accept({ color: 'green' }) }, requestState })).rejects.toMatchObject(
      { code: -32602 },
    );
  });

  it('refuses malformed inputResponses with -32602', async () => {
    for (const inputResponses of [null, 'yes', { name: 12345 }]) {
      // Sent as they are: the client's own inputResponses option takes only an object.
      const malformed = mcp.request('tools/call', { name: 'wizard', arguments: { greeting: 'Hi' }, inputResponses });
      await expect(malformed).rejects.toMatchObject({ code: -32602 });
    }
  });

  it('never sends an input request the client did not declare: -32021 instead', async () => {
    const undeclared = testClient(atUrl(fixtureUrl())).callTool('pushy');
    await expect(undeclared).rejects.toMatchObject({
      status: 400,
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('serves a resource read in rounds, and the retry is never cacheable', async () => {
    const first = await mcp.readResource('test://locked');
    expect(first.result.resultType).toBe('input_required');
    const retry = await mcp.readResource('test://locked', {
      inputResponses: { password: accept({ password: 'open sesame' }) },
    });
    expect(retry.result).toMatchObject({
      resultType: 'complete',
      contents: [{ text: 'the treasure' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
    expect(retry.headers.get('Cache-Control')).toBe('no-store');
  });
});
