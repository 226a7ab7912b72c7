/** Fault injection: tools that throw, return garbage, never settle or answer too much. Listen stream bounds: listen.test.ts. */
import { describe, expect, it } from 'vitest';
import { fixtureUrl, requestsTo } from '../support/mcp';

const { rpc } = requestsTo(fixtureUrl());

const call = (name: string, args: Record<string, unknown> = {}) =>
  rpc('tools/call', { params: { name, arguments: args } });

describe('fault injection', () => {
  it('stops a tool that never settles at the time limit and tells the model', async () => {
    const started = Date.now();
    const { status, body } = await call('hangs');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/did not finish within 0.3 s/) }],
    });
  });

  it('replaces a result over the size limit with a tool error', async () => {
    const { body } = await call('huge');
    expect(body.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/too large/) }] });
  });

  it('never leaks a stack trace, a path or a secret from a throwing tool', async () => {
    const { body } = await call('fails', { how: 'unexpected' });
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/secret|\/srv|\.ts:|at \w+/);
    expect(body.error).toEqual({ code: -32603, message: 'Internal error' });
  });
});

describe('upstream faults', () => {
  it('turns an upstream that never answers into a tool error at the time limit (the abort itself: test/unit/mcp/invokeTool.test.ts)', async () => {
    const { status, body } = await rpc('tools/call', { params: { name: 'impatient_upstream', arguments: {} } });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/did not finish/) }] });
  });
});
