/**
 * `prompts/get` (spec 2026-07-28 server/prompts): the prompt by name (one its rules hide from the
 * caller is unknown to it; one whose scopes it lacks, 403), its arguments checked, then its handler, in rounds.
 */
import { invalidParams, McpError } from '../errors';
import { readPromptArguments } from '../prompts';
import type { CompiledDefinition } from '../compiledDefinition';
import type { Method } from '../request';
import { serveRound } from '../rounds';
import { refusalFor } from '../visibility';

export function getPrompt(server: CompiledDefinition): Method {
  return (request) => {
    const params = request.message.params ?? {};
    const name = params.name;
    if (typeof name !== 'string') return { error: invalidParams('params.name must be a string') };
    const prompt = server.prompts.get(name);
    const refused = prompt && refusalFor(prompt, request.caller, server.scopeHierarchy);
    if (!prompt || refused === 'hidden') return { error: invalidParams(`Unknown prompt: ${name}`, { name }) };
    if (refused) return { error: refused };
    const args = readPromptArguments(prompt, params.arguments);
    if (args instanceof McpError) return { error: args };
    return serveRound(server, request, {
      salient: { name, arguments: args },
      run: async (context) => prompt.get(args, context),
      finish: (result) => server.finished(result),
    });
  };
}
