/**
 * The fields the Tasks extension adds to a tool and to its handler's context (docs/tasks.md), by
 * declaration merging: the core's `ToolFields` and `HandlerContext` know nothing of them, and a Worker without `src/tasks/` has none.
 */
import type { ToolField } from '../mcp/internal.js';

/** The Tasks extension's identifier (spec extensions/tasks). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * How a tool takes part in the Tasks extension: `optional` runs as a task for clients that declare
 * it, and as an ordinary call for the others and on a server without the extension; `required`
 * refuses the others (-32021), and needs a server with the extension (else it fails at load).
 */
export type TaskSupport = 'optional' | 'required';

/**
 * `task`, as createWorker asks of it: a tool that may run as a task is an ordinary call without
 * the extension (docs/tasks.md); one that runs only as a task cannot be served without it.
 */
export const TASK_FIELD: ToolField = {
  name: 'task',
  missing: (tool) =>
    tool.task === 'required'
      ? 'runs only as a task: turn tasks on: `extensions: [tasks()]` in src/index.ts (docs/tasks.md)'
      : undefined,
};

declare module '../mcp/define.js' {
  interface ToolFields {
    /** Runs as a task for clients that declare the Tasks extension, on a server that serves it (`tasks()`, docs/tasks.md). */
    task?: TaskSupport;
    /** A task handler that settles within this many ms answers directly, with no task kept (default 0: always a task). */
    immediateMs?: number;
  }
  interface HandlerContext {
    /** Set when the handler runs under a task (spec extensions/tasks): its id, and a status message for pollers. */
    task?: { id: string; status(message: string): void };
  }
}
