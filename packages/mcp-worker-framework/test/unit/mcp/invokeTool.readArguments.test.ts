/**
 * Arguments that break a tool's inputSchema are a tool error the model can fix (spec 2026-07-28
 * server/tools, Error Handling), decided in one place (`readArguments`, src/mcp/invokeTool.ts)
 * for a call answered at once (`tools/call`) and for a tool run elsewhere (`runTool`, a task).
 */
import { describe, expect, it } from 'vitest';
import { createServer, defineTool, runTool, text } from '../../../src/mcp';
import { RawJson } from '../../../src/mcp/json';
import { mcpRequest } from '../../support/request';

let ran = 0;
const sum = defineTool({
  name: 'sum',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  handler: ({ a, b }) => (ran++, text(String(a + b))),
});
const server = createServer({ info: { name: 'invalid-arguments', version: '1.0.0' }, tools: [sum] });
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sum', arguments: { a: 1 } } } as const;

describe('invalid arguments', () => {
  it('give the same tool error whether the call is answered here or the tool runs elsewhere, and never run the handler', async () => {
    const reply = await server.handle(mcpRequest(call));
    const answered = (reply.result instanceof RawJson ? JSON.parse(reply.result.json) : reply.result) as {
      content: unknown;
      isError: boolean;
    };
    const tool = server.tool('sum')!;
    const elsewhere = await runTool(
      tool,
      { a: 1 },
      mcpRequest(call),
      { responses: {}, state: undefined },
      {
        timeoutMs: undefined,
        abort: () => {},
        serialize: JSON.stringify,
        tooLarge: () => undefined,
      },
    );
    expect(answered.isError).toBe(true);
    expect(elsewhere).toEqual({ result: { content: answered.content, isError: true }, json: expect.any(String) });
    expect(ran).toBe(0);
  });
});
