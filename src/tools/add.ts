/** A pure tool: no I/O, a structured result checked against its `outputSchema`. */
import { defineTool } from 'mcp-worker-framework';

export const add = defineTool({
  name: 'add',
  title: 'Add two numbers',
  description: 'Adds two numbers and returns their sum.',
  inputSchema: {
    type: 'object',
    properties: {
      a: { type: 'number', description: 'First addend' },
      b: { type: 'number', description: 'Second addend' },
    },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { sum: { type: 'number' } },
    required: ['sum'],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ a, b }) => {
    const sum = a + b;
    // spec 2026-07-28 server/tools, Structured Content: also send the JSON as text for older clients
    return { content: [{ type: 'text', text: JSON.stringify({ sum }) }], structuredContent: { sum } };
  },
});
