/**
 * Tools that outlive a request: the Tasks extension (`io.modelcontextprotocol/tasks`) on
 * Durable Objects, opt-in per tool (`task: 'optional' | 'required'`). docs/tasks.md says when
 * to use it, what it costs, and how to switch it on: `extensions: [tasks()]` in src/index.ts,
 * and the MCP_TASKS block of wrangler.toml.
 */
import type { ExtensionObject, WorkerExtension } from '../mcp/internal.js';
import { durableTasks, type DurableTasksOptions, TASKS_BINDING } from './durableTasks.js';
import { taskObject } from './taskObject.js';

export { durableTasks, type DurableTasksOptions } from './durableTasks.js';
export { taskObject } from './taskObject.js';
export { TASKS_EXTENSION, type TaskSupport } from './toolFields.js';

/** The Tasks extension for `createWorker`: each task in a Durable Object of the class createWorker returns as `McpTask`, for src/index.ts to export. */
export function tasks(
  options: DurableTasksOptions = {},
): WorkerExtension & { durableObject: ExtensionObject<'McpTask'> } {
  return {
    ...durableTasks(options),
    durableObject: { name: 'McpTask', binding: options.binding ?? TASKS_BINDING, make: taskObject },
  };
}
