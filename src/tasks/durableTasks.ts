/**
 * `durableTasks()`: the Tasks extension (spec extensions/tasks) served by one Durable Object
 * per task. The Worker side: it mints task ids, starts tasks, and forwards `tasks/get`,
 * `tasks/update`, `tasks/cancel` and status subscriptions to the task's object, always with
 * the caller's principal, which the object checks against its creator.
 */
import { internalError, invalidParams, McpError, missingExtension, taskNotFound } from '../mcp/errors';
import { InputRequired, readInputResponses } from '../mcp/input';
import type { RequestMeta } from '../mcp/meta';
import type { CallContext, Handler, Reply } from '../mcp/server';
import { declaresTasks, TaskCreated, TASKS_EXTENSION, type TaskRuntime } from '../mcp/taskRuntime';
import type { JsonObject, JSONRPCNotification } from '../mcp/types';
import type { TaskObjectApi } from './taskObject';

export interface DurableTasksOptions {
  /** The Durable Object binding of the task class (`[[durable_objects.bindings]]`); default `MCP_TASKS`. */
  binding?: string;
  /** How long a task is kept after it is created, then deleted by its alarm; default 1 hour. */
  ttlMs?: number;
  /** How often clients are asked to poll `tasks/get`; default 1 second. */
  pollIntervalMs?: number;
}

export const DEFAULT_TASK_TTL_MS = 3_600_000;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** Task ids asked for in one `subscriptions/listen`: each costs a call to its object. */
export const MAX_WATCHED_TASKS = 100;

// 192 random bits, base64url: unguessable, so a task id never needs to be secret-free (spec extensions/tasks, Security).
const TASK_ID = /^[A-Za-z0-9_-]{32}$/;

export function durableTasks(options: DurableTasksOptions = {}): TaskRuntime {
  const binding = options.binding ?? 'MCP_TASKS';
  const ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;

  /** The task's object; undefined when the binding is missing from the Worker's config (logged). */
  function taskObject(env: Env, taskId: string): TaskObjectApi | undefined {
    const namespace: unknown = (env as unknown as Record<string, unknown>)[binding];
    if (!isNamespace(namespace)) {
      console.error(`task tools need the Durable Object binding ${binding} (docs/tasks.md)`);
      return undefined;
    }
    return namespace.get(namespace.idFromName(taskId)) as unknown as TaskObjectApi;
  }

  /** A task method: the extension declared, a well-formed id, then the object (spec extensions/tasks, Error Handling). */
  const taskMethod =
    (serve: (task: TaskObjectApi, principal: string | null, params: JsonObject, taskId: string) => Promise<Reply>): Handler =>
    async (params, meta, call) => {
      if (!declaresTasks(meta)) return { error: missingExtension(TASKS_EXTENSION) };
      const taskId = params.taskId;
      if (typeof taskId !== 'string') return { error: invalidParams('params.taskId must be a string') };
      if (!TASK_ID.test(taskId)) return { error: taskNotFound(taskId) };
      const task = taskObject(call.env, taskId);
      return task ? serve(task, call.principal ?? null, params, taskId) : { error: internalError() };
    };

  const methods = new Map<string, Handler>([
    ['tasks/get', taskMethod(async (task, principal, _params, taskId) => {
      const found = await task.get(principal);
      return found ? { result: found } : { error: taskNotFound(taskId) };
    })],
    ['tasks/update', taskMethod(async (task, principal, params, taskId) => {
      if (params.inputResponses === undefined) return { error: invalidParams('params.inputResponses is required') };
      const responses = readInputResponses(params);
      if (responses instanceof McpError) return { error: responses };
      return (await task.update(principal, responses)) ? { result: {} } : { error: taskNotFound(taskId) };
    })],
    ['tasks/cancel', taskMethod(async (task, principal, _params, taskId) =>
      (await task.cancel(principal)) ? { result: {} } : { error: taskNotFound(taskId) },
    )],
  ]);

  return {
    methods,

    async call(tool, args, input, meta, call) {
      const taskId = newTaskId();
      const task = taskObject(call.env, taskId);
      if (!task) return internalError();
      const outcome = await task.start({
        taskId,
        principal: call.principal ?? null,
        tool: tool.definition.name,
        args,
        input,
        client: clientOf(meta),
        ttlMs,
        pollIntervalMs,
        immediateMs: tool.definition.immediateMs ?? 0,
      });
      if ('task' in outcome) return new TaskCreated({ ...outcome.task });
      if ('inputRequired' in outcome) return new InputRequired(outcome.inputRequired.inputRequests, outcome.inputRequired.state);
      if ('error' in outcome) return new McpError(outcome.error.code as McpError['code'], outcome.error.message, outcome.error.data);
      return outcome.result;
    },

    async watch(taskIds, meta, call) {
      // spec extensions/tasks, Task Status Notifications: -32021 for a client without the extension
      if (!declaresTasks(meta)) return missingExtension(TASKS_EXTENSION);
      if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === 'string')) {
        return invalidParams('params.notifications.taskIds must be an array of strings');
      }
      if (taskIds.length > MAX_WATCHED_TASKS) return invalidParams(`params.notifications.taskIds lists more than ${MAX_WATCHED_TASKS} tasks`);
      const principal = call.principal ?? null;
      const watched = await Promise.all(
        [...new Set<string>(taskIds)].map(async (taskId) => {
          const task = TASK_ID.test(taskId) ? taskObject(call.env, taskId) : undefined;
          const lines = await task?.watch(principal);
          return lines ? { taskId, feed: lines.pipeThrough(notifications()) } : undefined;
        }),
      );
      const honoured = watched.filter((w) => w !== undefined);
      return { taskIds: honoured.map((w) => w.taskId), feeds: honoured.map((w) => w.feed) };
    },
  };
}

function newTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_');
}

/** The client as the task remembers it: no progress token, log level or trace, which belong to the creating request. */
const clientOf = (meta: RequestMeta) => ({
  protocolVersion: meta.protocolVersion,
  clientCapabilities: meta.clientCapabilities,
  ...(meta.clientInfo ? { clientInfo: meta.clientInfo } : {}),
});

const isNamespace = (value: unknown): value is DurableObjectNamespace =>
  typeof value === 'object' && value !== null && typeof (value as DurableObjectNamespace).idFromName === 'function';

/** The object's lines of JSON (one `DetailedTask` each) as `notifications/tasks`. */
function notifications(): TransformStream<Uint8Array, JSONRPCNotification> {
  const decoder = new TextDecoder();
  let pending = '';
  return new TransformStream({
    transform(chunk, out) {
      const lines = (pending + decoder.decode(chunk, { stream: true })).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line) out.enqueue({ jsonrpc: '2.0', method: 'notifications/tasks', params: JSON.parse(line) as JsonObject });
      }
    },
  });
}
