/**
 * One task as its Durable Object stores it, and the shapes the client sees
 * (spec extensions/tasks: `Task`, `DetailedTask`). Pure data and pure functions.
 */
import type { CallToolResult, Caller, InputRequest, JsonObject, JsonValue, RequestMeta } from '../mcp/internal.js';

type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** spec extensions/tasks, Tasks: the metadata every task shape carries. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** `Task` plus what its status inlines: `inputRequests`, `result` or `error`. */
export type DetailedTask = Task & {
  inputRequests?: Record<string, InputRequest>;
  /** The tool's result (spec extensions/tasks, Task Result). */
  result?: CallToolResult;
  error?: JsonObject;
};

/** What the creating request said about its client; the handler sees it on every run. */
export type TaskClient = Pick<RequestMeta, 'protocolVersion' | 'clientCapabilities' | 'clientInfo'>;

/**
 * What the handler sees of the creating caller besides its subject: its kind, issuer, scopes and
 * claims. Never its props (sign-in mode: the upstream token), which stay in the authorization
 * server's store.
 */
export type TaskCaller = Pick<Caller, 'kind' | 'issuer' | 'scopes' | 'claims'>;

export interface TaskRecord {
  task: Task;
  /** Who created it; every later request must come from the same caller (null: anonymous). */
  principal: string | null;
  /** The creator's scopes and claims, for the handler (absent: anonymous). */
  caller?: TaskCaller;
  tool: string;
  args: JsonObject;
  client: TaskClient;
  result?: CallToolResult;
  error?: JsonObject;
  /** Outstanding input requests, by the key the client answers. */
  inputRequests?: Record<string, InputRequest>;
  /** For each outstanding key, the key the handler used. */
  asked?: Record<string, string>;
  /** Answers of the current round (by the handler's keys): what the next run receives. */
  answers: Record<string, JsonObject>;
  /** What the handler's last `inputRequired(…, state)` carried. */
  state?: JsonValue;
  /** Input rounds so far: part of every key, so no key repeats over the task's life. */
  round: number;
}

export const isTerminal = (status: TaskStatus): boolean =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

/** spec extensions/tasks, Task Polling: what `tasks/get` and `notifications/tasks` show for the status. */
export function detailed(record: TaskRecord): DetailedTask {
  const { task } = record;
  if (task.status === 'input_required') return { ...task, inputRequests: record.inputRequests ?? {} };
  if (task.status === 'completed') return { ...task, result: record.result ?? { content: [] } };
  if (task.status === 'failed') return { ...task, error: record.error ?? {} };
  return { ...task };
}

/** Moves the task to a status, dropping what the old status inlined. */
export function transition(record: TaskRecord, status: TaskStatus, statusMessage?: string): void {
  record.task.status = status;
  record.task.lastUpdatedAt = new Date().toISOString();
  if (statusMessage === undefined) delete record.task.statusMessage;
  else record.task.statusMessage = statusMessage;
  if (status !== 'input_required') {
    delete record.inputRequests;
    delete record.asked;
  }
}

/** A new round of input requests, each under a key never used before in this task: `<handler key>@<round>`. */
export function askForInput(
  record: TaskRecord,
  requests: Readonly<Record<string, InputRequest>>,
  state: JsonValue | undefined,
): void {
  record.round++;
  record.inputRequests = {};
  record.asked = {};
  for (const [key, request] of Object.entries(requests)) {
    const exposed = `${key}@${record.round}`;
    record.inputRequests[exposed] = request;
    record.asked[exposed] = key;
  }
  record.answers = {};
  if (state === undefined) delete record.state;
  else record.state = state;
  transition(record, 'input_required', 'Waiting for input from the client');
}

/**
 * Takes the answers to outstanding keys (spec extensions/tasks, Task Update Requests: others
 * are ignored); true when at least one was outstanding.
 */
export function takeAnswers(record: TaskRecord, responses: Readonly<Record<string, JsonObject>>): boolean {
  let taken = false;
  for (const [exposed, answer] of Object.entries(responses)) {
    const key = record.asked && Object.hasOwn(record.asked, exposed) ? record.asked[exposed] : undefined;
    if (key === undefined) continue;
    record.answers[key] = answer;
    delete record.asked![exposed];
    delete record.inputRequests![exposed];
    taken = true;
  }
  if (taken) record.task.lastUpdatedAt = new Date().toISOString();
  return taken;
}

/** True when every request of the round has its answer. */
export const allAnswered = (record: TaskRecord): boolean => Object.keys(record.asked ?? {}).length === 0;
