/** `prompts/get` (spec 2026-07-28 server/prompts): the prompt by name, its arguments checked, then its handler, in rounds. */
import { invalidParams, McpError } from '../errors';
import { readPromptArguments } from '../prompts';
import type { Registry } from '../registry';
import type { Method } from '../request';
import { serveRound } from '../rounds';

export function getPrompt(server: Registry): Method {
  return (request) => {
    const params = request.message.params ?? {};
    const name = params.name;
    if (typeof name !== 'string') return { error: invalidParams('params.name must be a string') };
    const prompt = server.prompts.get(name);
    if (!prompt) return { error: invalidParams(`Unknown prompt: ${name}`, { name }) };
    const args = readPromptArguments(prompt, params.arguments);
    if (args instanceof McpError) return { error: args };
    return serveRound(server, request, {
      salient: { name, arguments: args },
      run: async (context) => prompt.get(args, context),
      finish: (result) => server.finished(result),
    });
  };
}
