/**
 * `durableTasks()`: the Tasks extension (spec extensions/tasks) served by one Durable Object
 * per task. The Worker side: it mints task ids, starts tasks, and forwards `tasks/get`,
 * `tasks/update`, `tasks/cancel` and status subscriptions to the task's object, always with
 * the caller's principal, which the object checks against its creator. An id that this server
 * did not mint for the caller (`./taskId.ts`) never reaches an object.
 */
import {
  binding as bound,
  type Caller,
  declaresExtension,
  type DurableObjects,
  type Extension,
  InputRequired,
  internalError,
  invalidParams,
  isDurableObjects,
  isObject,
  isRateLimit,
  type JsonObject,
  type JSONRPCNotification,
  McpError,
  type McpRequest,
  MetaKey,
  type Method,
  missingExtension,
  OtherResult,
  rateLimited,
  readInputResponses,
  type Remote,
  type Reply,
  type RequestMeta,
  taskNotFound,
  type WorkerEnv,
} from '../mcp/internal.js';
import { isTaskId, mintTaskId } from './taskId.js';
import { TASK_LIMITS, tooLargeToKeep } from './taskLimits.js';
import type { TaskObjectApi } from './taskObject.js';
import type { TaskCaller } from './taskRecord.js';
import { TASK_FIELD, TASKS_EXTENSION } from './toolFields.js';

export interface DurableTasksOptions {
  /** The Durable Object binding of the task class (`[[durable_objects.bindings]]`); default `MCP_TASKS`. */
  binding?: string;
  /** How long a task is kept after it is created, then deleted by its alarm; default 1 hour. */
  ttlMs?: number;
  /** How often clients are asked to poll `tasks/get`; default 1 second. */
  pollIntervalMs?: number;
  /**
   * The Rate Limiting binding (`[[ratelimits]]`) that counts each caller's task creations, by
   * principal, else client address; default `TASK_RATE_LIMITER`. Without it, no budget.
   */
  rateLimiter?: string;
}

/** The Durable Object binding of the task class when `binding` is not given. */
export const TASKS_BINDING = 'MCP_TASKS';
const DEFAULT_TASK_TTL_MS = 3_600_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** Task ids asked for in one `subscriptions/listen`: each costs a call to its object. */
const MAX_WATCHED_TASKS = 100;

/** True when this request declared the extension in its client capabilities (spec extensions/tasks, Capability Negotiation). */
const declaresTasks = (request: McpRequest) => declaresExtension(request, TASKS_EXTENSION);

/** The Tasks extension, for `extensions` in the server definition: task tools run in Durable Objects. */
export function durableTasks(options: DurableTasksOptions = {}): Extension {
  const binding = options.binding ?? TASKS_BINDING;
  const ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const rateLimiter = options.rateLimiter ?? 'TASK_RATE_LIMITER';

  /**
   * The namespace of task objects, when the deployment has what tasks need: the binding, and
   * MCP_STATE_SECRET, since ids minted with a key of one isolate would be unknown to the others.
   * Undefined (and logged) otherwise: fail closed.
   */
  function tasksIn(env: WorkerEnv): DurableObjects<TaskObjectApi> | undefined {
    const namespace = bound(env, binding, isDurableObjects<TaskObjectApi>);
    if (!namespace) {
      console.error(`task tools need the Durable Object binding ${binding} (docs/tasks.md)`);
      return undefined;
    }
    if (!env.MCP_STATE_SECRET) {
      console.error(
        'task tools need the secret MCP_STATE_SECRET: task ids are signed with it, so that every isolate can check them (docs/tasks.md)',
      );
      return undefined;
    }
    return namespace;
  }

  /** True when the caller has created as many tasks as `rateLimiter` allows for now (429, Retry-After). */
  async function overBudget(request: McpRequest): Promise<boolean> {
    const limiter = bound(request.env, rateLimiter, isRateLimit);
    if (!limiter) return false;
    const key =
      request.callerKey ?? (request.caller !== undefined ? `principal:${request.caller.subject}` : 'anonymous');
    return !(await limiter.limit({ key })).success;
  }

  /**
   * A task method: the extension declared, its params read and bounded (`read`), then an id this
   * server minted for the caller, then the object (spec extensions/tasks, Error Handling): an
   * unknown id, or params refused, cost no object.
   */
  const taskMethod =
    <P>(
      read: (params: JsonObject) => P | McpError,
      serve: (task: Remote<TaskObjectApi>, principal: string | null, input: P, taskId: string) => Promise<Reply>,
    ): Method =>
    async (request) => {
      if (!declaresTasks(request)) return { error: missingExtension(TASKS_EXTENSION) };
      const params = request.message.params ?? {};
      const taskId = params.taskId;
      if (typeof taskId !== 'string') return { error: invalidParams('params.taskId must be a string') };
      const input = read(params);
      if (input instanceof McpError) return { error: input };
      const tasks = tasksIn(request.env);
      if (!tasks) return { error: internalError() };
      const principal = request.caller?.subject ?? null;
      if (!(await isTaskId(request.secret, principal, taskId))) return { error: taskNotFound(taskId) };
      return serve(objectOf(tasks, taskId), principal, input, taskId);
    };

  const methods: [string, Method][] = [
    [
      'tasks/get',
      taskMethod(noParams, async (task, principal, _input, taskId) => {
        const found = await task.get(principal);
        return found ? { result: found } : { error: taskNotFound(taskId) };
      }),
    ],
    [
      'tasks/update',
      taskMethod(readAnswers, async (task, principal, responses, taskId) => {
        const outcome = await task.update(principal, responses);
        if (outcome === 'unknown') return { error: taskNotFound(taskId) };
        if (outcome === 'too large') {
          return {
            error: invalidParams(
              `params.inputResponses, with the answers this round already has, exceed what a task keeps (${TASK_LIMITS.inputBytes} bytes)`,
            ),
          };
        }
        return { result: {} };
      }),
    ],
    [
      'tasks/cancel',
      taskMethod(noParams, async (task, principal, _input, taskId) =>
        (await task.cancel(principal)) ? { result: {} } : { error: taskNotFound(taskId) },
      ),
    ],
  ];

  /**
   * `subscriptions/listen` with `notifications.taskIds` (spec extensions/tasks, Task Status
   * Notifications): acknowledges the caller's tasks among them, then forwards each one's
   * changes from its object, whichever isolate holds the stream.
   */
  const withTaskStatus =
    (listen: Method): Method =>
    async (request) => {
      const reply = await listen(request);
      const { id, params } = request.message;
      const taskIds = isObject(params?.notifications) ? params.notifications.taskIds : undefined;
      if (!reply.listen || taskIds === undefined) return reply;
      if (!declaresTasks(request)) return { error: missingExtension(TASKS_EXTENSION) };
      if (!Array.isArray(taskIds) || !taskIds.every((taskId) => typeof taskId === 'string')) {
        return { error: invalidParams('params.notifications.taskIds must be an array of strings') };
      }
      if (taskIds.length > MAX_WATCHED_TASKS)
        return { error: invalidParams(`params.notifications.taskIds lists more than ${MAX_WATCHED_TASKS} tasks`) };
      const tasks = tasksIn(request.env);
      if (!tasks) return { error: internalError() };
      const principal = request.caller?.subject ?? null;
      const found = await Promise.all(
        [...new Set<string>(taskIds)].map(async (taskId) => {
          if (!(await isTaskId(request.secret, principal, taskId))) return undefined;
          const task = objectOf(tasks, taskId);
          return (await task.get(principal)) ? { taskId, task } : undefined;
        }),
      );
      const watched = found.filter((w) => w !== undefined);
      const { acknowledgement, attach: inner } = reply.listen;
      const tag = { [MetaKey.subscriptionId]: id };
      // What another extension honours on this stream (notifications) stays, beside the task ids.
      const honoured = isObject(acknowledgement.params?.notifications) ? acknowledgement.params.notifications : {};
      return {
        listen: {
          ...reply.listen,
          acknowledgement: {
            ...acknowledgement,
            params: {
              ...acknowledgement.params,
              notifications: { ...honoured, taskIds: watched.map((w) => w.taskId) },
            },
          },
          attach(send, end) {
            const detach = inner?.(send, end);
            const streams = watched.map(({ task }) => task.watch(principal));
            const readers = streams.map(async (lines) => forward(await lines, tag, send));
            return () => {
              detach?.();
              for (const reader of readers) void reader.then((r) => r?.cancel()).catch(() => {});
            };
          },
        },
      };
    };

  return {
    id: TASKS_EXTENSION,
    toolField: TASK_FIELD,
    install: () => ({
      methods: Object.fromEntries(methods),
      listen: withTaskStatus,
      toolCalls: {
        // spec extensions/tasks, Capability Negotiation: a task only for a client that declared the extension
        claims(tool, request) {
          if (tool.definition.task === undefined) return false;
          if (declaresTasks(request)) return true;
          return tool.definition.task === 'required' ? missingExtension(TASKS_EXTENSION) : false;
        },

        async call(tool, args, input, request) {
          const tasks = tasksIn(request.env);
          if (!tasks) return internalError();
          // Before any object: what the task would keep must fit (./taskLimits.ts), then the caller's budget.
          const client = clientOf(request.meta);
          const caller = request.caller && taskCaller(request.caller);
          const tooLarge =
            tooLargeToKeep("the client's capabilities and info", client, TASK_LIMITS.clientBytes) ??
            tooLargeToKeep('params.arguments', args, TASK_LIMITS.argumentsBytes) ??
            tooLargeToKeep('params.inputResponses and requestState', input, TASK_LIMITS.inputBytes) ??
            tooLargeToKeep("the caller's scopes and claims", caller, TASK_LIMITS.callerBytes);
          if (tooLarge) return tooLarge;
          if (await overBudget(request)) return rateLimited();
          const principal = request.caller?.subject ?? null;
          const taskId = await mintTaskId(request.secret, principal);
          const outcome = await objectOf(tasks, taskId).start({
            taskId,
            principal,
            ...(caller ? { caller } : {}),
            tool: tool.definition.name,
            args,
            input,
            client,
            ttlMs,
            pollIntervalMs,
            immediateMs: tool.definition.immediateMs ?? 0,
          });
          // spec extensions/tasks, Task Creation: a CreateTaskResult
          if ('task' in outcome) return new OtherResult({ resultType: 'task', ...outcome.task });
          if ('inputRequired' in outcome)
            return new InputRequired(outcome.inputRequired.inputRequests, outcome.inputRequired.state);
          if ('error' in outcome)
            return new McpError(outcome.error.code as McpError['code'], outcome.error.message, outcome.error.data);
          return outcome.result;
        },
      },
    }),
  };
}

const noParams = () => undefined;

/** `tasks/update`'s answers (spec extensions/tasks, Task Update Requests), bounded before they reach the task. */
function readAnswers(params: JsonObject): Record<string, JsonObject> | McpError {
  if (params.inputResponses === undefined) return invalidParams('params.inputResponses is required');
  const responses = readInputResponses(params);
  if (responses instanceof McpError) return responses;
  return tooLargeToKeep('params.inputResponses', responses, TASK_LIMITS.inputBytes) ?? responses;
}

/** What a task keeps of its creator (`TaskCaller`): everything but the subject, its principal, and the props. */
const taskCaller = ({ kind, issuer, scopes, claims }: Caller): TaskCaller => ({
  kind,
  ...(issuer !== undefined ? { issuer } : {}),
  scopes,
  claims,
});

const objectOf = (tasks: DurableObjects<TaskObjectApi>, taskId: string) => tasks.get(tasks.idFromName(taskId));

/** The client as the task remembers it: no progress token, log level or trace, which belong to the creating request. */
const clientOf = (meta: RequestMeta) => ({
  protocolVersion: meta.protocolVersion,
  clientCapabilities: meta.clientCapabilities,
  ...(meta.clientInfo ? { clientInfo: meta.clientInfo } : {}),
});

/**
 * Sends the object's lines of JSON (one `DetailedTask` each) as `notifications/tasks` until the
 * stream ends (terminal status, expiry); the reader lets the listener stop it first.
 */
function forward(
  lines: ReadableStream<Uint8Array> | undefined,
  tag: JsonObject,
  send: (notification: JSONRPCNotification) => void,
) {
  if (!lines) return undefined;
  const reader = lines.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let pending = '';
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        const split = (pending + decoder.decode(next.value, { stream: true })).split('\n');
        pending = split.pop() ?? '';
        for (const line of split)
          if (line)
            send({
              jsonrpc: '2.0',
              method: 'notifications/tasks',
              params: { ...(JSON.parse(line) as JsonObject), _meta: tag },
            });
      }
    } catch {
      // the listener left or the task's object went away: nothing more to send
    }
  })();
  return reader;
}
