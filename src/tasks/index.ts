/**
 * Tools that outlive a request: the Tasks extension (`io.modelcontextprotocol/tasks`) on
 * Durable Objects, opt-in per tool (`task: 'optional' | 'required'`). docs/tasks.md says when
 * to use it, what it costs, and how to switch it on.
 */
export { durableTasks, type DurableTasksOptions } from './durableTasks';
export { taskObject } from './taskObject';
