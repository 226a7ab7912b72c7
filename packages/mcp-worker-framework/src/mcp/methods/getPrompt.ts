/**
 * `prompts/get` (spec 2026-07-28 server/prompts): the prompt by name, admitted once (`findPrompt`:
 * one its rules hide from the caller is unknown to it; one whose scopes it lacks, 403), its
 * arguments checked, then its handler, in rounds.
 */
import type { ItemMethod } from '../request.js';
import type { PromptDefinition } from '../define.js';
import { invalidParams, McpError } from '../errors.js';
import { readPromptArguments } from '../prompts.js';
import type { CompiledDefinition } from '../compiledDefinition.js';
import { serveRound } from '../rounds.js';
import { refusalFor } from '../visibility.js';

export function getPrompt(compiled: CompiledDefinition): ItemMethod<PromptDefinition> {
  return {
    find(message, _meta, caller) {
      const name = message.params?.name;
      if (typeof name !== 'string') return invalidParams('params.name must be a string');
      const prompt = compiled.prompts.get(name);
      const refused = prompt && refusalFor(prompt, caller, compiled.scopeHierarchy);
      if (!prompt || refused === 'hidden') return invalidParams(`Unknown prompt: ${name}`, { name });
      return refused ?? prompt;
    },
    serve(request, prompt) {
      const args = readPromptArguments(prompt, request.message.params?.arguments);
      if (args instanceof McpError) return { error: args };
      return serveRound(compiled, request, {
        salient: { name: prompt.name, arguments: args },
        run: async (context) => prompt.get(args, context),
        finish: (result) => compiled.finished(result),
      });
    },
  };
}
