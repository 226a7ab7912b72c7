/**
 * The Durable Object that holds one task (spec extensions/tasks): its record, strongly
 * consistent, written before the client hears of the task; the tool's handler, run here so it
 * outlives the request; status notifications for every listener, whatever isolate holds
 * their stream; and the alarm that deletes it when its time to live is over.
 */
import { DurableObject } from 'cloudflare:workers';
import {
  bytesOver,
  type CallToolResult,
  checkInputRequests,
  type CompiledServer,
  type InputRequest,
  InputRequired,
  internalError,
  type JsonObject,
  type JsonValue,
  McpError,
  type McpRequest,
  type RoundInput,
  type WorkerEnv,
} from '../mcp/internal.js';
import { charactersOver, runTool } from '../mcp/index.js';
import {
  allAnswered,
  askForInput,
  detailed,
  isTerminal,
  takeAnswers,
  transition,
  type DetailedTask,
  type Task,
  type TaskCaller,
  type TaskClient,
  type TaskRecord,
} from './taskRecord.js';
import { TASK_LIMITS } from './taskLimits.js';

/** What a task's run of its tool ends with: what the task records (spec extensions/tasks, Task Execution Errors). */
type RunOutcome = CallToolResult | InputRequired | McpError;

/** What `tools/call` hands the new task. */
interface TaskStart {
  taskId: string;
  principal: string | null;
  /** The creator's scopes and claims, for the handler (absent: anonymous). */
  caller?: TaskCaller;
  tool: string;
  args: JsonObject;
  input: RoundInput;
  client: TaskClient;
  ttlMs: number;
  pollIntervalMs: number;
  /** The immediate-result shortcut: wait this long for the handler before answering with the task. */
  immediateMs: number;
}

/** How `start` answers, as plain data (RPC carries no class instances). */
type StartOutcome =
  | { task: Task }
  | { result: CallToolResult }
  | { inputRequired: { inputRequests: Record<string, InputRequest>; state?: JsonValue } }
  | { error: { code: number; message: string; data?: unknown } };

/** How `update` answers: taken (or ignored, as the spec has it), no such task for this caller, or more than the task keeps. */
type UpdateOutcome = 'updated' | 'unknown' | 'too large';

/** The RPC surface the Worker calls; `false`/`undefined` means no such task for this caller. */
export interface TaskObjectApi {
  start(init: TaskStart): Promise<StartOutcome>;
  get(principal: string | null): Promise<DetailedTask | undefined>;
  update(principal: string | null, responses: Record<string, JsonObject>): Promise<UpdateOutcome>;
  cancel(principal: string | null): Promise<boolean>;
  watch(principal: string | null): Promise<ReadableStream<Uint8Array> | undefined>;
}

const encoder = new TextEncoder();

/** What the class of a task object is: made per server, so its methods are its type. */
type TaskObjectClass = new (ctx: DurableObjectState, env: WorkerEnv) => DurableObject<WorkerEnv> & TaskObjectApi;

/** The Durable Object class for a server's task tools; export it from the Worker's entry under the class name in the config. */
export function taskObject(server: CompiledServer): TaskObjectClass {
  return class McpTask extends DurableObject<WorkerEnv> implements TaskObjectApi {
    private record: TaskRecord | undefined;
    private loaded = false;
    private running: AbortController | undefined;
    private readonly watchers = new Set<ReadableStreamDefaultController<Uint8Array>>();

    async start(init: TaskStart): Promise<StartOutcome> {
      const now = new Date().toISOString();
      const record: TaskRecord = {
        task: {
          taskId: init.taskId,
          status: 'working',
          createdAt: now,
          lastUpdatedAt: now,
          ttlMs: init.ttlMs,
          pollIntervalMs: init.pollIntervalMs,
        },
        principal: init.principal,
        ...(init.caller ? { caller: init.caller } : {}),
        tool: init.tool,
        args: init.args,
        client: init.client,
        answers: { ...init.input.responses },
        ...(init.input.state !== undefined ? { state: init.input.state } : {}),
        round: 0,
      };
      this.record = record;
      this.loaded = true;
      const outcome = this.run(record);
      if (init.immediateMs > 0) {
        const early = await Promise.race([
          outcome,
          new Promise<undefined>((resolve) => setTimeout(resolve, init.immediateMs)),
        ]);
        if (early !== undefined) {
          // Settled in time: answered as a plain call, so no task is kept (spec extensions/tasks, Polymorphic Results).
          this.record = undefined;
          return plain(early);
        }
      }
      // spec extensions/tasks, Task Creation: stored before CreateTaskResult leaves (the output gate holds the answer until the write is durable)
      this.write(record);
      await this.ctx.storage.setAlarm(Date.now() + init.ttlMs);
      this.settleLater(record, outcome);
      return { task: { ...record.task } };
    }

    async get(principal: string | null): Promise<DetailedTask | undefined> {
      const record = await this.load(principal);
      return record && detailed(record);
    }

    async update(principal: string | null, responses: Record<string, JsonObject>): Promise<UpdateOutcome> {
      const record = await this.load(principal);
      if (!record) return 'unknown';
      if (record.task.status !== 'input_required') return 'updated';
      // The round's answers so far and all of these, whether outstanding or not: an upper bound, checked before anything is taken.
      if (bytesOver(JSON.stringify([record.answers, responses]), TASK_LIMITS.inputBytes) !== undefined)
        return 'too large';
      if (!takeAnswers(record, responses)) return 'updated';
      if (allAnswered(record)) {
        transition(record, 'working');
        this.settleLater(record, this.run(record));
      }
      await this.save(record);
      return 'updated';
    }

    async cancel(principal: string | null): Promise<boolean> {
      const record = await this.load(principal);
      if (!record) return false;
      // spec extensions/tasks, Task Cancellation: a terminal task stays as it is; the ack is the same
      if (isTerminal(record.task.status)) return true;
      transition(record, 'cancelled', 'Cancelled by the client');
      this.running?.abort(new DOMException('the task was cancelled', 'AbortError'));
      await this.save(record);
      return true;
    }

    async watch(principal: string | null): Promise<ReadableStream<Uint8Array> | undefined> {
      const record = await this.load(principal);
      if (!record) return undefined;
      let watcher!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({
        start: (controller) => void (watcher = controller),
        cancel: () => void this.watchers.delete(watcher),
      });
      this.watchers.add(watcher);
      this.notify(record, [watcher]);
      return stream;
    }

    /** The time to live is over: stop the work, forget the task (spec extensions/tasks, Task Polling: TTL). */
    override async alarm(): Promise<void> {
      this.running?.abort(new DOMException('the task expired', 'TimeoutError'));
      for (const watcher of this.watchers) watcher.close();
      this.watchers.clear();
      this.record = undefined;
      await this.ctx.storage.deleteAll();
    }

    /**
     * The caller's task, read once per activation. A record stored `working` by an activation that
     * is gone (an eviction: a deploy, a crash) lost its run, which starts again here: at least
     * once. A run this activation started is never started again: it settles the task itself.
     */
    private async load(principal: string | null): Promise<TaskRecord | undefined> {
      if (!this.loaded) {
        this.record = this.read();
        this.loaded = true;
        if (this.record?.task.status === 'working' && !expired(this.record))
          this.settleLater(this.record, this.run(this.record));
      }
      const record = this.record;
      if (!record || record.principal !== principal || expired(record)) return undefined;
      return record;
    }

    /** Runs the handler with the current round's answers, abortable by cancel and expiry. */
    private run(record: TaskRecord): Promise<RunOutcome> {
      const tool = server.tool(record.tool);
      if (!tool) {
        console.error(`task ${record.task.taskId}: tool ${record.tool} is no longer served`);
        return Promise.resolve(internalError());
      }
      const abort = new AbortController();
      this.running = abort;
      const request: McpRequest = {
        message: {
          jsonrpc: '2.0',
          id: record.task.taskId,
          method: 'tools/call',
          params: { name: record.tool, arguments: record.args },
        },
        meta: record.client,
        // The creator as the direct call saw it, props aside (the record never keeps them: docs/server-api.md).
        caller:
          record.principal !== null
            ? {
                subject: record.principal,
                // A record kept before callers had a kind says none: taken for a machine, the kind no rule for people admits.
                kind: record.caller?.kind ?? 'machine',
                ...(record.caller?.issuer !== undefined ? { issuer: record.caller.issuer } : {}),
                scopes: record.caller?.scopes ?? [],
                claims: record.caller?.claims ?? {},
              }
            : undefined,
        signal: abort.signal,
        abort: (reason) => abort.abort(reason),
        notify: () => {}, // spec extensions/tasks: no progress or log notifications for tasks
        env: this.env,
        secret: '',
      };
      // The one way a tool runs (src/mcp/invokeTool.ts): no time limit (a task outlives the request);
      // the result kept as it is, bounded as the server bounds an answer, and in the bytes of the row it is stored in.
      const characters = charactersOver(server.compiled.maxResultChars);
      const tooLarge = (json: string) => {
        const bytes = bytesOver(json, TASK_LIMITS.resultBytes);
        return bytes === undefined
          ? characters(json)
          : `too large to keep (${bytes} bytes, over ${TASK_LIMITS.resultBytes})`;
      };
      const outcome = async (): Promise<RunOutcome> => {
        // The record keeps the arguments as sent; the core reads them as the handler takes them (a Standard Schema's transforms).
        const input = { responses: record.answers, state: record.state };
        const task = { id: record.task.taskId, status: (message: string) => this.report(record, message) };
        const ran = await runTool(
          tool,
          record.args,
          request,
          input,
          { timeoutMs: undefined, tooLarge, abort: request.abort, serialize: JSON.stringify },
          { task },
        );
        // The result as it is kept and sent: the JSON already made of it, not the handler's object.
        return ran instanceof InputRequired || ran instanceof McpError ? ran : (JSON.parse(ran.json) as CallToolResult);
      };
      // Any failure of the run (arguments read again, the handler, its result) is an outcome: the task fails, once.
      return outcome()
        .catch((error: unknown) => {
          console.error(`task ${record.task.taskId}: the run of ${record.tool} failed`, error);
          return internalError();
        })
        .finally(() => {
          if (this.running === abort) this.running = undefined;
        });
    }

    /** Records the run's outcome, unless the task was cancelled or expired meanwhile; the DO stays up until then. */
    private settleLater(record: TaskRecord, outcome: Promise<RunOutcome>): void {
      this.ctx.waitUntil(
        outcome.then(async (value) => {
          if (this.record !== record || isTerminal(record.task.status)) return;
          try {
            if (value instanceof InputRequired) {
              const refused = checkInputRequests(value, record.client.clientCapabilities);
              if (refused) fail(record, refused);
              else askForInput(record, value.inputRequests, value.state);
            } else if (value instanceof McpError) {
              fail(record, value);
            } else {
              record.result = value;
              transition(record, 'completed');
            }
            await this.save(record);
          } catch (error) {
            // Settled all the same: failed, never left working for a poll to run again.
            console.error(`task ${record.task.taskId}: its outcome could not be kept; the task fails`, error);
            delete record.result;
            delete record.state;
            fail(record, internalError());
            await this.save(record);
          }
        }),
      );
    }

    private report(record: TaskRecord, message: string): void {
      if (this.record !== record || isTerminal(record.task.status)) return;
      record.task.statusMessage = String(message); // a string whatever a handler passes, so the record stays JSON
      record.task.lastUpdatedAt = new Date().toISOString();
      this.ctx.waitUntil(this.save(record));
    }

    /**
     * The stored record, if any. Reading creates nothing: the table exists only once a task was
     * written, so a lookup of a task that never was, or is gone, leaves no storage behind.
     */
    private read(): TaskRecord | undefined {
      const { sql } = this.ctx.storage;
      if (sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'task'").toArray().length === 0)
        return undefined;
      const row = sql.exec<{ record: string }>('SELECT record FROM task').toArray()[0];
      return row ? (JSON.parse(row.record) as TaskRecord) : undefined;
    }

    /**
     * One row: the task's record as JSON (SQLite-backed object: writes are durable when the
     * output gate opens). A record over what a task keeps (what the handler asked to keep: its
     * state, its error, its status message) fails the task, rather than the write.
     */
    private write(record: TaskRecord): void {
      let json = JSON.stringify(record);
      const bytes = bytesOver(json, TASK_LIMITS.recordBytes);
      if (bytes !== undefined) {
        console.error(
          `task ${record.task.taskId}: its record would be ${bytes} bytes, over the ${TASK_LIMITS.recordBytes} a task keeps; the task fails`,
        );
        delete record.result;
        delete record.state;
        fail(record, internalError());
        json = JSON.stringify(record);
      }
      const { sql } = this.ctx.storage;
      sql.exec('CREATE TABLE IF NOT EXISTS task (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL)');
      sql.exec(
        'INSERT INTO task (id, record) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record',
        json,
      );
    }

    /** Stores the change and tells every watcher; callers await it so their answer leaves after the write. */
    private async save(record: TaskRecord): Promise<void> {
      this.write(record);
      this.notify(record, this.watchers);
    }

    /** One line of JSON per change to each watcher; a terminal status is the last. */
    private notify(record: TaskRecord, to: Iterable<ReadableStreamDefaultController<Uint8Array>>): void {
      const line = encoder.encode(`${JSON.stringify(detailed(record))}\n`);
      for (const watcher of [...to]) {
        try {
          watcher.enqueue(line);
          if (isTerminal(record.task.status)) {
            watcher.close();
            this.watchers.delete(watcher);
          }
        } catch {
          this.watchers.delete(watcher);
        }
      }
    }
  };
}

/** Past its time to live: gone for every caller, though its alarm may not have run yet. */
const expired = (record: TaskRecord) =>
  Date.now() >= Date.parse(record.task.createdAt) + (record.task.ttlMs ?? Infinity);

/** spec extensions/tasks, Task Execution Errors: a JSON-RPC error makes the task `failed`. */
function fail(record: TaskRecord, error: McpError): void {
  record.error = {
    code: error.code,
    message: error.message,
    ...(error.data !== undefined ? { data: error.data } : {}),
  };
  transition(record, 'failed', error.message);
}

function plain(outcome: RunOutcome): StartOutcome {
  if (outcome instanceof McpError)
    return {
      error: {
        code: outcome.code,
        message: outcome.message,
        ...(outcome.data !== undefined ? { data: outcome.data } : {}),
      },
    };
  if (outcome instanceof InputRequired) {
    return {
      inputRequired: {
        inputRequests: { ...outcome.inputRequests },
        ...(outcome.state !== undefined ? { state: outcome.state } : {}),
      },
    };
  }
  return { result: outcome };
}
