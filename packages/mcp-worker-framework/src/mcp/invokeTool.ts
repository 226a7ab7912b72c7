/**
 * The one way a tool's handler runs, whether it answers the request itself (`methods/callTool.ts`)
 * or runs under a task (`src/tasks/`), and the one place anything becomes a tool error the model
 * reads (spec 2026-07-28 server/tools, Error Handling): arguments that break the tool's
 * `inputSchema` (`readArguments`), a thrown `ToolError`, a handler past its time limit, a result
 * too large; any other exception is -32603 with nothing from inside; a result must have its
 * `content` array and keep its `outputSchema`; a handler still
 * running at its time limit is aborted and reported to the model; a result larger than its
 * limit (the server's `maxResultChars` as sent, and for a task also the bytes a task keeps) is
 * replaced by a tool error; a result that cannot be checked or serialized is -32603, as a throw is.
 */
import { ToolError, type HandlerContext } from './define.js';
import { internalError, McpError } from './errors.js';
import type { RoundInput } from './extension.js';
import { handlerContext } from './handlerContext.js';
import { InputRequired } from './input.js';
import { isObject } from './json.js';
import type { McpRequest } from './request.js';
import type { CompiledTool } from './tools.js';
import type { CallToolResult, JsonObject } from './types.js';

export interface ToolRun {
  /** Stop waiting after this long, abort the handler (`abort`) and tell the model; undefined waits as long as it takes (a task). */
  timeoutMs: number | undefined;
  /** What an asynchronous check of the arguments already took of that time (the limit covers it too). */
  spentMs?: number;
  /** Aborts the handler's signal: the time limit is over. */
  abort(reason: unknown): void;
  /** The result as it will be sent or kept, serialized once, so its size is what leaves. */
  serialize(result: CallToolResult): string;
  /** Why that JSON is too large (e.g. "too large to return (2000000 characters)"), or undefined when it fits. */
  tooLarge(json: string): string | undefined;
}

/** The limit of a result sent as the answer: the server's `maxResultChars`, in characters of JSON. */
export const charactersOver = (max: number) => (json: string) =>
  json.length > max ? `too large to return (${json.length} characters, over ${max})` : undefined;

/** A tool's result with its JSON, serialized once as it will be sent or kept. */
export interface SerializedToolResult {
  result: CallToolResult;
  json: string;
}

/** A tool's outcome: its result with its JSON, a request for input, or a JSON-RPC error. */
export type ToolOutcome = SerializedToolResult | InputRequired | McpError;

/** Arguments the tool's schema refused (`readArguments`), as the tool error the model reads and can fix. */
export class RefusedArguments {
  constructor(readonly outcome: SerializedToolResult) {}
}

/**
 * `args` as sent, read as the handler takes them (`CompiledTool.readArguments`): a JSON Schema
 * tool at once; a Standard Schema may check asynchronously (a refinement that looks something up),
 * within the run's time limit as the handler is (at the limit the run aborts; a Standard Schema
 * takes no signal, so the check itself is only abandoned), and what it took is written to
 * `run.spentMs`, so the handler gets the rest. Arguments that break the schema, or a check out of
 * time, are the tool error the model can fix, never a JSON-RPC error.
 */
export function readArguments(
  tool: CompiledTool,
  args: JsonObject,
  run: Pick<ToolRun, 'timeoutMs' | 'spentMs' | 'abort' | 'serialize'>,
): unknown {
  const read = tool.readArguments(args);
  if (!(read instanceof Promise)) return refusedOr(read, run);
  if (run.timeoutMs === undefined) return read.then((value) => refusedOr(value, run));
  const started = Date.now();
  const late = (message: string) => new ToolError(message);
  return withTimeLimit(read, tool.definition.name, run.timeoutMs, run.abort, late).then((value) => {
    run.spentMs = Date.now() - started;
    return refusedOr(value, run);
  });
}

/** The arguments, or, refused, the tool error the model reads. */
function refusedOr(value: unknown, run: Pick<ToolRun, 'serialize'>): unknown {
  if (!(value instanceof ToolError)) return value;
  const result = toolError(value.message);
  return new RefusedArguments({ result, json: run.serialize(result) });
}

/**
 * The public way an extension runs one of the server's tools outside the call it answers (a
 * task's Durable Object): `args` as the client sent them, read as the handler takes them
 * (arguments that break the schema are a tool error for the model), the handler's context made
 * for `request` with this round's `input`, plus the fields the extension adds to it (`extra`,
 * e.g. tasks' `task`, declared by the extension on `HandlerContext`); then `invokeTool`.
 */
export async function runTool(
  tool: CompiledTool,
  args: JsonObject,
  request: McpRequest,
  input: RoundInput,
  run: ToolRun,
  extra?: Partial<HandlerContext>,
): Promise<ToolOutcome> {
  const read = await readArguments(tool, args, run);
  if (read instanceof RefusedArguments) return read.outcome;
  // No logging: a run outside the request has no stream to log to.
  const context = Object.assign(handlerContext(request, input, false), extra);
  return invokeTool(tool, read, context, run);
}

/**
 * Runs the handler with `args` as it takes them (`CompiledTool.readArguments`). A handler that
 * answers at once is checked and serialized at once, with no promise (five fewer per call, with
 * `serveRound`'s): 1,600 to 5,200 fewer instructions per call in workerd, by the means of three and
 * four counts (BENCHMARKS.md, "tools/call against its target").
 */
export function invokeTool(
  tool: CompiledTool,
  args: unknown,
  context: HandlerContext,
  run: ToolRun,
): ToolOutcome | Promise<ToolOutcome> {
  const name = tool.definition.name;
  let answer: CallToolResult | InputRequired | Promise<CallToolResult | InputRequired>;
  try {
    answer = tool.definition.handler(args as never, context);
  } catch (error) {
    return thrown(tool, error, run);
  }
  if (!(answer instanceof Promise)) return outcomeOf(tool, answer, run);
  // A handler that answers at once needs no clock; one that never settles is stopped at the
  // time limit (its signal aborts) and reported to the model.
  const settled =
    run.timeoutMs === undefined
      ? answer
      : withTimeLimit(answer, name, run.timeoutMs, run.abort, toolError, run.spentMs);
  return settled.then(
    (value) => outcomeOf(tool, value, run),
    (error: unknown) => thrown(tool, error, run),
  );
}

/** What a handler threw: a `ToolError` is the tool error the model reads; any other, -32603 with nothing from inside. */
function thrown(tool: CompiledTool, error: unknown, run: ToolRun): ToolOutcome | Promise<ToolOutcome> {
  if (error instanceof ToolError) return outcomeOf(tool, toolError(error.message), run);
  if (error instanceof McpError) return error;
  console.error(`tool ${tool.definition.name} threw`, error);
  return internalError();
}

/** The handler's answer, checked and serialized; a request for input goes back as it is. */
function outcomeOf(
  tool: CompiledTool,
  value: CallToolResult | InputRequired,
  run: ToolRun,
): ToolOutcome | Promise<ToolOutcome> {
  if (value instanceof InputRequired) return value;
  // The handler has answered: whatever fails from here (an output check that throws, a result JSON
  // cannot carry: a BigInt, a cycle) is the server's fault, -32603 once, never an exception that
  // leaves the call, or a task, without an outcome.
  try {
    const outcome = checked(tool, value, run);
    return outcome instanceof Promise ? outcome.catch((error: unknown) => unusable(tool, error)) : outcome;
  } catch (error) {
    return unusable(tool, error);
  }
}

/** A result that could not be checked or serialized: the server's fault, logged, -32603. */
function unusable(tool: CompiledTool, error: unknown): McpError {
  console.error(`tool ${tool.definition.name} returned a result that could not be checked or serialized`, error);
  return internalError();
}

/** The handler's result kept to its `content` array and its `outputSchema`; a promise only for a Standard Schema's check. */
function checked(tool: CompiledTool, value: CallToolResult, run: ToolRun): ToolOutcome | Promise<ToolOutcome> {
  const name = tool.definition.name;
  if (!isObject(value) || !Array.isArray(value.content)) {
    console.error(`tool ${name} returned a result without a content array`);
    return internalError();
  }
  if (value.isError) return sent(name, value, run);
  const badOutput = tool.checkOutput(value.structuredContent);
  return badOutput instanceof Promise
    ? badOutput.then((why) => sent(name, value, run, why))
    : sent(name, value, run, badOutput);
}

/** The result serialized once, as it will leave, and its size bounded; `badOutput`: why it breaks its outputSchema. */
function sent(name: string, value: CallToolResult, run: ToolRun, badOutput?: string): ToolOutcome {
  if (badOutput) {
    console.error(`tool ${name} returned structuredContent that breaks its outputSchema: ${badOutput}`);
    return internalError();
  }
  const json = run.serialize(value);
  // JSON.stringify gives undefined, not a string, for a result whose toJSON gives nothing.
  if (typeof json !== 'string') throw new TypeError('the result has no JSON form');
  const why = run.tooLarge(json);
  if (why === undefined) return { result: value, json };
  console.error(`tool ${name} returned a result ${why}`);
  const tooLarge = toolError(`Tool ${name} produced a result ${why}; ask for less.`);
  return { result: tooLarge, json: run.serialize(tooLarge) };
}

/** A result the model reads as a failure it may act on (`isError: true`). */
const toolError = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});

/**
 * Races a tool's answer (its handler's, or its asynchronous argument check's) against what is left of
 * its time limit once `spentMs` are gone; at the limit, `late` of a message for the model, and an
 * abort for the handler.
 */
async function withTimeLimit<T, Late>(
  answer: Promise<T>,
  name: string,
  limitMs: number,
  abort: ToolRun['abort'],
  late: (message: string) => Late,
  spentMs = 0,
): Promise<T | Late> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const past = new Promise<Late>((resolve) => {
    timer = setTimeout(
      () => {
        resolve(late(`Tool ${name} did not finish within ${limitMs / 1000} s; try again or narrow the request.`));
        abort(new DOMException(`tool ${name} timed out`, 'TimeoutError')); // after: the time limit wins the race
      },
      Math.max(0, limitMs - spentMs),
    );
  });
  try {
    return await Promise.race([answer, past]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
