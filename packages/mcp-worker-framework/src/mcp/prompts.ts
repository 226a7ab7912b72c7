/** Prompts: argument checks for `prompts/get` (spec 2026-07-28 server/prompts). */
import type { PromptDefinition } from './define.js';
import { invalidParams, type McpError } from './errors.js';
import { isObject } from './json.js';

/** `Prompt` as `prompts/list` shows it: arguments without their completers, no handler. */
export function listedPrompt({
  get: _get,
  arguments: args,
  requiredScopes: _scopes,
  visibleTo: _visibleTo,
  ...listed
}: PromptDefinition): object {
  return args ? { ...listed, arguments: args.map(({ complete: _complete, ...arg }) => arg) } : listed;
}

/** `params.arguments` as a map of strings with every required argument present, or -32602 naming what is wrong. */
export function readPromptArguments(prompt: PromptDefinition, given: unknown): Record<string, string> | McpError {
  if (given !== undefined && !isObject(given)) return invalidParams('params.arguments must be an object of strings');
  const args = (given ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== 'string') return invalidParams(`prompt argument "${name}" must be a string`);
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !Object.hasOwn(args, a.name)).map((a) => a.name);
  if (missing.length > 0) {
    return invalidParams(
      `prompt ${prompt.name} is missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
      { missing },
    );
  }
  return args as Record<string, string>;
}
