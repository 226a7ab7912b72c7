/** The suite's Tasks extension fixtures (`tasks-*` scenarios: spec extensions/tasks), run by `durableTasks()`. */
import { accepted, defineTool, elicit, inputRequired, text, ToolError } from '../../src/mcp';
import { NO_ARGUMENTS } from './content';

/** Waits, but stops at once when the task is cancelled or expires. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

const nameForm = elicit('What is your name?', {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
});
const confirmForm = (message: string) =>
  elicit(message, { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] });

export const taskTools = [
  defineTool({
    name: 'greet',
    description: 'Greets synchronously (never a task)',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    handler: ({ name }) => text(`Hello, ${String(name)}!`),
  }),
  defineTool({
    name: 'slow_compute',
    description: 'Works for `seconds` seconds, then answers; under 100 ms it answers at once',
    inputSchema: {
      type: 'object',
      properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
      required: ['seconds'],
    },
    task: 'optional',
    immediateMs: 100,
    async handler({ seconds, label }, { signal }) {
      await pause(Number(seconds) * 1000, signal);
      return text(`Computed ${String(label ?? 'result')} in ${String(seconds)} s`);
    },
  }),
  defineTool({
    name: 'failing_job',
    description: 'Fails with a tool error after about a second (tasks only)',
    inputSchema: NO_ARGUMENTS,
    task: 'required',
    async handler(_, { signal }) {
      await pause(1000, signal);
      throw new ToolError('The job failed: the upstream system rejected it');
    },
  }),
  defineTool({
    name: 'protocol_error_job',
    description: 'Crashes after half a second: a protocol error, so the task fails',
    inputSchema: NO_ARGUMENTS,
    task: 'optional',
    async handler(_, { signal }) {
      await pause(500, signal);
      throw new Error('the job crashed');
    },
  }),
  defineTool({
    name: 'confirm_delete',
    description: 'Asks for confirmation inside the task, then deletes (pretends to)',
    inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
    task: 'optional',
    handler: ({ filename }, { inputResponses }) => {
      const answer = accepted(inputResponses.confirm);
      if (!answer) return inputRequired({ confirm: confirmForm(`Delete ${String(filename)}?`) });
      return text(answer.confirm === true ? `Deleted ${String(filename)}` : `Kept ${String(filename)}`);
    },
  }),
  defineTool({
    name: 'multi_input',
    description: 'Asks two questions at once inside the task',
    inputSchema: NO_ARGUMENTS,
    task: 'optional',
    handler: (_, { inputResponses }) => {
      const name = accepted(inputResponses.name)?.name;
      const confirmed = accepted(inputResponses.confirm);
      if (typeof name !== 'string' || !confirmed)
        return inputRequired({ name: nameForm, confirm: confirmForm('Proceed?') });
      return text(`${name} confirmed`);
    },
  }),
  defineTool({
    name: 'test_tool_with_task',
    description: 'Asks for a name before the task (MRTR), then works in a task',
    inputSchema: NO_ARGUMENTS,
    task: 'required',
    immediateMs: 200,
    async handler(_, { inputResponses, signal }) {
      const name = accepted(inputResponses.user_name)?.name;
      if (typeof name !== 'string') return inputRequired({ user_name: nameForm });
      await pause(1000, signal);
      return text(`Hello, ${name}! Your task is done.`);
    },
  }),
];
