/** Task tools for the framework's tests: each exercises one path of a task's life. */
import * as z from 'zod';
import { accepted, type CallToolResult, defineTool, elicit, inputRequired, text, ToolError } from '../../src/mcp';

/** The time to live of tasks made through `?short-lived`. */
export const SHORT_TTL_MS = 1500;

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;
const MS = { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } } } as const;

/** Waits, and stops early when the task is cancelled or expires. */
export const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * How many times each `key`'s handler has run, across requests and task objects (one isolate
 * holds them all in workerd); the fixture Worker answers it at `GET /handler-runs?key=`.
 */
export const handlerRuns = new Map<string, number>();
const ran = (key: unknown) => handlerRuns.set(String(key), (handlerRuns.get(String(key)) ?? 0) + 1);

/** A result JSON cannot carry: a BigInt, a cycle, or a `toJSON` that gives nothing. */
function unsendable(fault: unknown): CallToolResult {
  const result = text('made, but not sendable');
  if (fault === 'bigint') return { ...result, structuredContent: { count: 10n } };
  if (fault === 'cycle') return Object.assign(result, { structuredContent: { self: result } });
  return Object.assign(result, { toJSON: () => undefined });
}
const UNSENDABLE = {
  type: 'object',
  properties: { key: { type: 'string' }, fault: { enum: ['bigint', 'cycle', 'no-json'] } },
  required: ['key', 'fault'],
} as const;

const approval = elicit('Publish it?', {
  type: 'object',
  properties: { publish: { type: 'boolean' } },
  required: ['publish'],
});

export const fixtureTaskTools = [
  defineTool({
    name: 'work',
    description: 'Works for `ms` milliseconds, reporting a status message, then answers',
    inputSchema: MS,
    task: 'optional',
    async handler({ ms }, { signal, task }) {
      task?.status('warming up');
      await pause(Number(ms ?? 0), signal);
      return text(signal.aborted ? 'stopped' : `worked ${String(ms ?? 0)} ms${task ? ' in a task' : ''}`);
    },
  }),
  defineTool({
    name: 'counted_work',
    description: 'Counts its run under `key`, then works for `ms` milliseconds',
    inputSchema: {
      type: 'object',
      properties: { key: { type: 'string' }, ms: { type: 'integer', minimum: 0 } },
      required: ['key'],
    },
    task: 'optional',
    async handler({ key, ms }, { signal }) {
      ran(key);
      await pause(Number(ms ?? 0), signal);
      return text(`worked ${String(ms ?? 0)} ms`);
    },
  }),
  defineTool({
    name: 'approve',
    description: 'Drafts for `ms`, asks once whether to publish (the draft kept in state), then finishes',
    inputSchema: MS,
    task: 'optional',
    async handler({ ms }, { signal, inputResponses, state }) {
      const answer = accepted(inputResponses.publish);
      if (state === undefined) {
        await pause(Number(ms ?? 0), signal);
        return inputRequired({ publish: approval }, { draft: 'draft-1' });
      }
      if (!answer) return inputRequired({ publish: approval }, state);
      return text(`${answer.publish === true ? 'published' : 'kept'} ${String((state as { draft: string }).draft)}`);
    },
  }),
  defineTool({
    name: 'refuses',
    description: 'Fails with a tool error (isError), after `ms`',
    inputSchema: MS,
    task: 'optional',
    async handler({ ms }, { signal }) {
      await pause(Number(ms ?? 0), signal);
      throw new ToolError('cannot do that');
    },
  }),
  defineTool({
    name: 'crashes',
    description: 'Throws an unexpected error (a protocol error), after `ms`',
    inputSchema: MS,
    task: 'optional',
    async handler({ ms }, { signal }) {
      await pause(Number(ms ?? 0), signal);
      throw new Error('boom');
    },
  }),
  defineTool({
    name: 'quick',
    description: 'Answers at once; a task only when it is slower than its immediate window',
    inputSchema: NO_ARGUMENTS,
    task: 'optional',
    immediateMs: 2000,
    handler: () => text('done quickly'),
  }),
  defineTool({
    name: 'only_task',
    description: 'Refuses clients that do not declare the Tasks extension',
    inputSchema: NO_ARGUMENTS,
    task: 'required',
    handler: () => text('done'),
  }),
  defineTool({
    name: 'sized',
    description: 'Answers with `count` copies of `char`: a result of a chosen size',
    inputSchema: {
      type: 'object',
      properties: { char: { type: 'string' }, count: { type: 'integer', minimum: 0 } },
      required: ['char', 'count'],
    },
    task: 'optional',
    handler: ({ char, count }) => text(String(char).repeat(Number(count))),
  }),
  defineTool({
    name: 'asks_twice',
    description: 'Asks two questions in one round, then echoes how many answers came back',
    inputSchema: NO_ARGUMENTS,
    task: 'optional',
    handler: (_args, { inputResponses }) =>
      Object.keys(inputResponses).length < 2
        ? inputRequired({ first: approval, second: approval }, 'asked')
        : text(`${Object.keys(inputResponses).length} answers`),
  }),
  defineTool({
    name: 'hoards',
    description: 'Asks for input carrying `count` characters of state: more than a task can keep',
    inputSchema: { type: 'object', properties: { count: { type: 'integer', minimum: 0 } }, required: ['count'] },
    task: 'optional',
    handler: ({ count }, { state }) =>
      state === undefined ? inputRequired({ publish: approval }, 'x'.repeat(Number(count))) : text('kept'),
  }),
  defineTool({
    name: 'whoami',
    description: 'Answers, in a task, the caller its handler received',
    inputSchema: NO_ARGUMENTS,
    task: 'optional',
    handler: (_, { caller }) => ({
      ...text(caller?.subject ?? 'anonymous'),
      structuredContent: { caller: caller ?? null },
    }),
  }),
  defineTool({
    name: 'parsed',
    description: 'A zod schema: the task object reads the arguments again, so its transform reaches the handler',
    inputSchema: z.object({ day: z.string().transform((day) => new Date(`${day}T00:00:00Z`)) }),
    task: 'optional',
    handler: ({ day }) => ({
      ...text(day.toISOString()),
      structuredContent: { isDate: day instanceof Date, year: day.getUTCFullYear() },
    }),
  }),
  defineTool({
    name: 'unsendable',
    description:
      'Counts its run under `key`, reports progress, then returns a result that cannot become JSON (`fault`)',
    inputSchema: UNSENDABLE,
    task: 'optional',
    handler: ({ key, fault }, { progress }) => (ran(key), progress(1, 1, 'made'), unsendable(fault)),
  }),
  defineTool({
    name: 'unsendable_at_once',
    description: 'As unsendable, within its immediate window',
    inputSchema: UNSENDABLE,
    task: 'optional',
    immediateMs: 2000,
    handler: ({ key, fault }) => (ran(key), unsendable(fault)),
  }),
  defineTool({
    name: 'keeps_unsendable',
    description: 'Counts its run under `key`, then asks for input with a state JSON cannot carry',
    inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    task: 'optional',
    handler: ({ key }) => (ran(key), inputRequired({ publish: approval }, { count: 10n } as never)),
  }),
  defineTool({
    name: 'odd_status',
    description: 'Counts its run under `key`, reports a status message that is not a string, then answers',
    inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    task: 'optional',
    handler: ({ key }, { task }) => (ran(key), task?.status(10n as never), text('reported')),
  }),
  defineTool({
    name: 'check_throws',
    description: 'Counts its run under `key`; the check of its output throws',
    inputSchema: z.object({ key: z.string() }),
    outputSchema: z.object({ n: z.number() }).refine(() => {
      throw new Error('the output check itself failed');
    }),
    task: 'optional',
    handler: ({ key }) => (ran(key), { ...text('1'), structuredContent: { n: 1 } }),
  }),
  defineTool({
    name: 'plain',
    description: 'An ordinary tool: never a task',
    inputSchema: NO_ARGUMENTS,
    handler: () => text('plain'),
  }),
];
