/**
 * The core's side of the Tasks extension (spec extensions/tasks, `io.modelcontextprotocol/tasks`):
 * what it asks of a task runtime. The runtime (one Durable Object per task) lives in
 * `src/tasks/` and comes in as `ServerDefinition.tasks`, so a server without task tools never
 * bundles it and stays stateless.
 */
import type { McpError } from './errors';
import type { InputRequired } from './input';
import { isObject } from './jsonrpc';
import type { RequestMeta } from './meta';
import type { CallContext, Handler } from './server';
import type { CompiledTool } from './tools';
import type { CallToolResult, JsonObject, JSONRPCNotification, JsonValue } from './types';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How a tool takes part: `optional` runs as a task for clients that declare the extension, `required` refuses the others. */
export type TaskSupport = 'optional' | 'required';

/** A `tools/call` answered with a task: the `CreateTaskResult` (`resultType: "task"`, spec extensions/tasks, Task Creation). */
export class TaskCreated {
  constructor(readonly task: JsonObject) {}
}

/** What a retry brought: the answers to the previous round and its unsealed state (spec basic/patterns/mrtr). */
export interface TaskInput {
  responses: Readonly<Record<string, JsonObject>>;
  state: JsonValue | undefined;
}

/** What `subscriptions/listen` gets for `notifications.taskIds`: the ids honoured, and their notifications. */
export interface TaskWatch {
  taskIds: string[];
  feeds: ReadableStream<JSONRPCNotification>[];
}

export interface TaskRuntime {
  /** `tasks/get`, `tasks/update` and `tasks/cancel`. */
  readonly methods: ReadonlyMap<string, Handler>;
  /**
   * Runs a task tool's call under a new task. It may still answer at once: the immediate
   * result when the handler finishes fast, or an input request before the task exists (MRTR).
   */
  call(tool: CompiledTool, args: JsonObject, input: TaskInput, meta: RequestMeta, call: CallContext): Promise<CallToolResult | InputRequired | TaskCreated | McpError>;
  /** `subscriptions/listen` with `notifications.taskIds` (spec extensions/tasks, Task Status Notifications). */
  watch(taskIds: unknown, meta: RequestMeta, call: CallContext): Promise<TaskWatch | McpError>;
}

/** True when this request declared the extension in its client capabilities (spec extensions/tasks, Capability Negotiation). */
export function declaresTasks(meta: RequestMeta): boolean {
  const extensions = meta.clientCapabilities.extensions;
  return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION) && isObject(extensions[TASKS_EXTENSION]);
}
