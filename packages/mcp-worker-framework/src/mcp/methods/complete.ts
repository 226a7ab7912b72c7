/**
 * `completion/complete` (spec 2026-07-28 server/utilities/completion): suggestions for a prompt
 * argument or a template variable; a prompt or template the caller may not use is unknown to it.
 */
import type { Completer } from '../define.js';
import { invalidParams } from '../errors.js';
import { isObject } from '../json.js';
import type { CompiledDefinition } from '../compiledDefinition.js';
import type { Method } from '../request.js';
import { refusalFor } from '../visibility.js';

export function complete(compiled: CompiledDefinition): Method {
  return async (request) => {
    const params = request.message.params ?? {};
    const { ref, argument } = params;
    if (
      !isObject(ref) ||
      !isObject(argument) ||
      typeof argument.name !== 'string' ||
      typeof argument.value !== 'string'
    ) {
      return {
        error: invalidParams('params.ref must be an object and params.argument must have string "name" and "value"'),
      };
    }
    const context =
      isObject(params.context) && isObject(params.context.arguments)
        ? (params.context.arguments as Record<string, string>)
        : {};
    let completer: Completer | undefined;
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const prompt = compiled.prompts.get(ref.name);
      if (!prompt || refusalFor(prompt, request.caller, compiled.scopeHierarchy))
        return { error: invalidParams(`Unknown prompt: ${ref.name}`) };
      completer = prompt.arguments?.find((a) => a.name === argument.name)?.complete;
    } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const template = compiled.templates.find((t) => t.definition.uriTemplate === ref.uri);
      if (!template || refusalFor(template.definition, request.caller, compiled.scopeHierarchy))
        return { error: invalidParams(`Unknown resource template: ${ref.uri}`) };
      const completers = template.definition.complete ?? {};
      completer = Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
    } else {
      return { error: invalidParams('params.ref must be a ref/prompt with a name or a ref/resource with a uri') };
    }
    const values = completer ? await completer(argument.value, context) : [];
    // spec 2026-07-28 server/utilities/completion: at most 100 values per response
    return compiled.finished({
      completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 },
    });
  };
}
