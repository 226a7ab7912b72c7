/**
 * The core's side of the Tasks extension (spec extensions/tasks, `io.modelcontextprotocol/tasks`):
 * the two seams a task runtime plugs into. The runtime (one Durable Object per task) lives in
 * `src/tasks/` and comes in as `ServerDefinition.tasks`, so a server without task tools never
 * bundles it and stays stateless.
 */
import type { McpError } from './errors';
import type { InputRequired } from './input';
import { isObject } from './jsonrpc';
import type { RequestMeta } from './meta';
import type { CallContext, Handler, ResultReply } from './handler';
import type { CompiledTool } from './tools';
import type { CallToolResult, JsonObject, JsonValue } from './types';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';


/** A `tools/call` answered with a task: the `CreateTaskResult` (`resultType: "task"`, spec extensions/tasks, Task Creation). */
export class TaskCreated {
  constructor(readonly task: JsonObject) {}
}

/** What a retry brought: the answers to the previous round and its unsealed state (spec basic/patterns/mrtr). */
export interface TaskInput {
  responses: Readonly<Record<string, JsonObject>>;
  state: JsonValue | undefined;
}

/** What `createServer` lends the runtime once, at load: the method table and the result shaper. */
export interface ServerSeams {
  methods: Map<string, Handler>;
  complete(result: object): ResultReply;
}

export interface TaskRuntime {
  /** Adds the extension's methods (`tasks/*`, task ids on `subscriptions/listen`); called once, when a task tool exists. */
  install(server: ServerSeams): void;
  /** For a task tool: true to run this call as a task, false to run it directly, or the error refusing it. */
  accepts(tool: CompiledTool, meta: RequestMeta): boolean | McpError;
  /**
   * Runs a task tool's call under a new task. It may still answer at once: the immediate
   * result when the handler finishes fast, or an input request before the task exists (MRTR).
   */
  call(tool: CompiledTool, args: JsonObject, input: TaskInput, meta: RequestMeta, call: CallContext): Promise<CallToolResult | InputRequired | TaskCreated | McpError>;
}

/** True when this request declared the extension in its client capabilities (spec extensions/tasks, Capability Negotiation). */
export function declaresTasks(meta: RequestMeta): boolean {
  const extensions = meta.clientCapabilities.extensions;
  return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION) && isObject(extensions[TASKS_EXTENSION]);
}
