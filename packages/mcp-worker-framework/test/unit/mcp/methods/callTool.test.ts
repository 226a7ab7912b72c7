/**
 * `tools/call` holds a Standard Schema's asynchronous argument check to the tool's time limit, as
 * it holds the handler: the core called directly, its clock the test's (fake timers), so the limit
 * is observed by the time advanced, never by waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { createServer } from '../../../../src/mcp/createServer';
import { defineTool, text, ToolError } from '../../../../src/mcp/define';
import type { RawJson } from '../../../../src/mcp/json';
import type { Reply } from '../../../../src/mcp/request';
import { stalls } from '../../../fixtures/standard/tools';
import { mcpRequest } from '../../../support/request';

/** Checks its arguments for 200 ms, then never answers: 100 ms are left of its 300 ms for the handler. */
const slowThenHangs = defineTool({
  name: 'slow_then_hangs',
  inputSchema: z.object({
    code: z.string().refine(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 200))),
  }),
  timeoutMs: 300,
  handler: () => new Promise<never>(() => {}),
});

const server = createServer({ info: { name: 'unit', version: '0.0.1' }, tools: [stalls, slowThenHangs] });

function call(name: string, abort: (reason: unknown) => void) {
  const message = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name, arguments: { code: 'x' } } };
  return server.handle(mcpRequest(message, undefined, { abort }));
}
const late = (name: string) => ({
  isError: true,
  content: [{ type: 'text', text: `Tool ${name} did not finish within 0.3 s; try again or narrow the request.` }],
});

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('tools/call with an asynchronous argument check', () => {
  it('answers at the time limit with a tool error and aborts the request, when the check never answers', async () => {
    const abort = vi.fn();
    let answered = false;
    const reply = Promise.resolve(call('stalls', abort)).finally(() => (answered = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(answered).toBe(false);
    expect(abort).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const { result } = await reply;
    expect(JSON.parse((result as RawJson).json)).toMatchObject(late('stalls'));
    expect(abort).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ name: 'TimeoutError' }));
  });

  it('gives the handler what is left of the limit after the check', async () => {
    const abort = vi.fn();
    let answered = false;
    const reply = Promise.resolve(call('slow_then_hangs', abort)).finally(() => (answered = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { result } = await reply;
    expect(JSON.parse((result as RawJson).json)).toMatchObject(late('slow_then_hangs'));
    expect(abort).toHaveBeenCalledOnce();
  });
});

describe('tools/call with a check that answers at once', () => {
  it('needs no clock', async () => {
    const quick = defineTool({ name: 'quick', inputSchema: z.object({}), timeoutMs: 300, handler: () => text('done') });
    const reply = createServer({ info: { name: 'unit', version: '0.0.1' }, tools: [quick] }).handle(
      mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick', arguments: {} } }),
    );
    expect(vi.getTimerCount()).toBe(0);
    expect(JSON.parse(((await reply).result as RawJson).json)).toMatchObject({ content: [{ text: 'done' }] });
  });
});

describe('tools/call and the server’s maxResultChars', () => {
  const sized = defineTool({ name: 'sized', inputSchema: { type: 'object' }, handler: () => text('x'.repeat(500)) });
  const info = { name: 'unit', version: '0.0.1' };
  const call = async (maxResultChars?: number) => {
    const message = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'sized', arguments: {} } };
    const reply = await createServer({ info, tools: [sized], maxResultChars }).handle(mcpRequest(message));
    return (reply.result as RawJson).json;
  };

  it('serves a result exactly at the limit, in characters of its JSON as sent, and refuses one character over', async () => {
    // The result's JSON as the server sends it, from a server that would take a far larger one.
    const json = await call();
    expect(JSON.parse(json)).toMatchObject({ content: [{ type: 'text', text: 'x'.repeat(500) }] });
    expect(await call(json.length)).toBe(json);
    const over = JSON.parse(await call(json.length - 1));
    expect(over).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/too large/) }],
    });
  });
});

describe('tools/call of a handler that answers at once, or later', () => {
  const info = { name: 'unit', version: '0.0.1' };
  /** Answers, or throws a ToolError or another error, at once or in a promise, as asked. */
  const either = defineTool({
    name: 'either',
    inputSchema: {
      type: 'object',
      properties: { how: { enum: ['answer', 'tool error', 'crash'] }, later: { type: 'boolean' } },
      required: ['how', 'later'],
    },
    outputSchema: { type: 'object', properties: { done: { type: 'boolean' } }, required: ['done'] },
    handler: ({ how, later }) => {
      const answer = () => {
        if (how === 'tool error') throw new ToolError('not now');
        if (how === 'crash') throw new Error('internal detail');
        return { content: [{ type: 'text' as const, text: '{"done":true}' }], structuredContent: { done: true } };
      };
      return later ? Promise.resolve().then(answer) : answer();
    },
  });
  const server = createServer({ info, tools: [either] });
  const call = (how: string, later: boolean) =>
    server.handle(
      mcpRequest({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'either', arguments: { how, later } },
      }),
    );

  // The core's other synchronous replies (discover, the lists) need no promise either: no microtask, no promise per layer.
  it('replies without a promise when the handler answers at once, its arguments and output checked', () => {
    const reply = call('answer', false);
    expect(reply).not.toBeInstanceOf(Promise);
    expect(JSON.parse(((reply as Reply<RawJson>).result as RawJson).json)).toMatchObject({
      structuredContent: { done: true },
    });
  });

  it.each([false, true])(
    'makes a ToolError a tool error and anything else -32603 (in a promise: %s)',
    async (later) => {
      const refused = await call('tool error', later);
      expect(JSON.parse((refused.result as RawJson).json)).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'not now' }],
      });
      const crashed = await call('crash', later);
      expect(crashed.error?.code).toBe(-32603);
      expect(JSON.stringify(crashed)).not.toContain('internal detail');
    },
  );
});
