/**
 * A task tool (node_modules/mcp-worker-framework/docs/tasks.md): compiling a report takes seconds, too long to hold a request
 * open, so a client that speaks the Tasks extension gets a task to poll instead. Halfway it
 * asks the user once whether to add an appendix; the draft waits in `state`, and the handler
 * runs again with the answer (in its task, or as a multi round-trip request for the others).
 * A task with tasks on (`extensions: [tasks()]` in src/index.ts); an ordinary call, for every
 * client, with tasks off (the default).
 */
import { accepted, defineTool, elicit, inputRequired, text } from 'mcp-worker-framework';
// The Tasks extension's fields: `task` of a tool, and of its handler's context.
import type {} from 'mcp-worker-framework/tasks';

/** Each of the two stages stands for slow work (an upstream job, a model call). */
export const STAGE_MS = 2_000;

const askForAppendix = elicit('The draft is ready. Add an appendix with the raw figures?', {
  type: 'object',
  properties: { appendix: { type: 'boolean', title: 'Add the appendix' } },
  required: ['appendix'],
});

const stage = async (signal: AbortSignal) => {
  await new Promise((resolve) => setTimeout(resolve, STAGE_MS));
  signal.throwIfAborted(); // cancelled meanwhile: stop here, the task records nothing more
};

export const compileReport = defineTool({
  name: 'compile_report',
  title: 'Compile a report',
  description: 'Compiles a short report on a topic; takes a few seconds and asks once whether to add an appendix.',
  inputSchema: {
    type: 'object',
    properties: { topic: { type: 'string', minLength: 1, maxLength: 200 } },
    required: ['topic'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  task: 'optional',
  async handler({ topic }, { signal, state, inputResponses, can, task }) {
    let draft = typeof state === 'string' ? state : undefined;
    if (draft === undefined) {
      task?.status('Gathering sources');
      await stage(signal);
      draft = `# Report: ${topic}\n\nSources gathered and summarised on ${new Date().toISOString().slice(0, 10)}.`;
      if (can('elicitation')) return inputRequired({ appendix: askForAppendix }, draft);
    }
    task?.status('Writing the final version');
    await stage(signal);
    const appendix = accepted(inputResponses.appendix)?.appendix === true;
    return text(appendix ? `${draft}\n\n## Appendix\n\nRaw figures for ${topic}.` : draft);
  },
});
