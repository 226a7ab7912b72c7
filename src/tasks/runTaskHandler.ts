/**
 * Runs a task tool's handler once, to what the task records: a tool result (tool errors
 * included: `completed` with `isError`), a request for input, or a JSON-RPC error (`failed`)
 * (spec extensions/tasks, Task Execution Errors).
 */
import { ToolError, type HandlerContext } from '../mcp/define';
import { internalError, McpError } from '../mcp/errors';
import { InputRequired } from '../mcp/input';
import { isObject } from '../mcp/jsonrpc';
import type { CompiledTool } from '../mcp/tools';
import type { CallToolResult, JsonObject } from '../mcp/types';
import { bytesOver, TASK_LIMITS } from './taskLimits';

export type RunOutcome = CallToolResult | InputRequired | McpError;

export async function runTaskHandler(tool: CompiledTool, args: JsonObject, context: HandlerContext): Promise<RunOutcome> {
  const name = tool.definition.name;
  let value: Awaited<ReturnType<CompiledTool['definition']['handler']>>;
  try {
    value = await tool.definition.handler(args as never, context);
  } catch (error) {
    if (error instanceof ToolError) return toolError(error.message);
    if (error instanceof McpError) return error;
    console.error(`task tool ${name} threw`, error);
    return internalError();
  }
  if (value instanceof InputRequired) return value;
  const result: CallToolResult = value;
  if (!isObject(result) || !Array.isArray(result.content)) {
    console.error(`task tool ${name} returned a result without a content array`);
    return internalError();
  }
  const badOutput = result.isError ? undefined : tool.checkOutput(result.structuredContent);
  if (badOutput) {
    console.error(`task tool ${name} returned structuredContent that breaks its outputSchema: ${badOutput}`);
    return internalError();
  }
  // Stored in the task's Durable Object and inlined by every tasks/get: bounded in bytes, as the row it is stored in is.
  const bytes = bytesOver(JSON.stringify(result), TASK_LIMITS.resultBytes);
  if (bytes === undefined) return result;
  console.error(`task tool ${name} returned ${bytes} bytes of JSON, over the ${TASK_LIMITS.resultBytes} a task keeps`);
  return toolError(`Tool ${name} produced a result too large to keep (${bytes} bytes); ask for less.`);
}

const toolError = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });
