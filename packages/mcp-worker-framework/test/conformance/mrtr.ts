/** The suite's multi round-trip fixtures (spec 2026-07-28 basic/patterns/mrtr), stateless between rounds. */
import {
  accepted,
  defineTool,
  definePrompt,
  elicit,
  inputRequired,
  listRoots,
  sample,
  sampledText,
  text,
  type InputRequest,
  type ToolDefinition,
} from '../../src/mcp';
import { NO_ARGUMENTS } from './content';

const nameForm = elicit('What is your name?', {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
});
const okForm = elicit('Please confirm', { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });

const tool = (name: string, handler: ToolDefinition<typeof NO_ARGUMENTS>['handler']) =>
  defineTool({ name, description: `MRTR fixture ${name}`, inputSchema: NO_ARGUMENTS, handler });

export const mrtrTools = [
  tool('test_input_required_result_elicitation', (_, { inputResponses }) => {
    const name = accepted(inputResponses.user_name)?.name;
    return typeof name === 'string' ? text(`Hello, ${name}!`) : inputRequired({ user_name: nameForm });
  }),
  tool('test_input_required_result_sampling', (_, { inputResponses }) => {
    const answer = sampledText(inputResponses.capital_question);
    return answer
      ? text(`The model said: ${answer}`)
      : inputRequired({ capital_question: sample('What is the capital of France?', 100) });
  }),
  tool('test_input_required_result_list_roots', (_, { inputResponses }) => {
    const roots = inputResponses.client_roots?.roots;
    return Array.isArray(roots)
      ? text(`The client has ${roots.length} root(s)`)
      : inputRequired({ client_roots: listRoots() });
  }),
  tool('test_input_required_result_request_state', (_, { inputResponses, state }) =>
    state === 'awaiting-confirmation' && accepted(inputResponses.confirm)
      ? text('state-ok: confirmed')
      : inputRequired({ confirm: okForm }, 'awaiting-confirmation'),
  ),
  tool('test_input_required_result_multiple_inputs', (_, { inputResponses }) => {
    const name = accepted(inputResponses.user_name)?.name;
    const greeting = sampledText(inputResponses.greeting);
    const roots = inputResponses.client_roots?.roots;
    if (typeof name === 'string' && greeting && Array.isArray(roots))
      return text(`${greeting} ${name} (${roots.length} roots)`);
    return inputRequired(
      { user_name: nameForm, greeting: sample('Write a one-line greeting', 50), client_roots: listRoots() },
      { round: 1 },
    );
  }),
  tool('test_input_required_result_multi_round', (_, { inputResponses, state }) => {
    const round = (state as { round?: number } | undefined)?.round;
    const name = accepted(inputResponses.step1)?.name;
    if (round === 2) {
      const color = accepted(inputResponses.step2)?.color;
      if (typeof color === 'string') return text(`${String((state as { name: string }).name)} likes ${color}`);
    }
    if (round === 1 && typeof name === 'string') {
      const colorForm = elicit('Favourite colour?', {
        type: 'object',
        properties: { color: { type: 'string' } },
        required: ['color'],
      });
      return inputRequired({ step2: colorForm }, { round: 2, name });
    }
    return inputRequired({ step1: nameForm }, { round: 1 });
  }),
  tool('test_input_required_result_tampered_state', (_, { inputResponses, state }) =>
    state === 'sealed' && accepted(inputResponses.confirm)
      ? text('State verified')
      : inputRequired({ confirm: okForm }, 'sealed'),
  ),
  tool('test_input_required_result_capabilities', (_, { can, inputResponses }) => {
    if (Object.keys(inputResponses).length > 0) return text('Thanks');
    // Ask only for what this client declared (spec mrtr: never send an undeclared input request).
    const requests: Record<string, InputRequest> = {};
    if (can('sampling')) requests.summary = sample('Summarise MCP in one line', 50);
    if (can('elicitation.form')) requests.user_name = nameForm;
    if (can('roots')) requests.client_roots = listRoots();
    return Object.keys(requests).length > 0 ? inputRequired(requests) : text('Nothing to ask this client');
  }),
];

export const mrtrPrompt = definePrompt({
  name: 'test_input_required_result_prompt',
  description: 'A prompt that needs context from the user first',
  get: (_, { inputResponses }) => {
    const context = accepted(inputResponses.user_context)?.context;
    if (typeof context !== 'string') {
      return inputRequired({
        user_context: elicit('What context should the prompt use?', {
          type: 'object',
          properties: { context: { type: 'string' } },
          required: ['context'],
        }),
      });
    }
    return { messages: [{ role: 'user', content: { type: 'text', text: `Context: ${context}` } }] };
  },
});
