/**
 * The method handlers that run the author's code: `tools/call`, `prompts/get`,
 * `resources/read` (any of which may ask the client for input, spec 2026-07-28
 * basic/patterns/mrtr) and `completion/complete`. Built once by `createServer` over its
 * compiled registry.
 */
import { handlerContext } from './context';
import { ToolError, type CacheableMethod, type Completer, type HandlerContext } from './define';
import type { ServerDefinition } from './serverDefinition';
import { cannotAskLegacyClient, internalError, invalidParams, McpError, resourceNotFoundLegacy } from './errors';
import type { CallContext, CompleteResult, Handler, Reply } from './handler';
import { checkInputRequests, InputRequired, readInputResponses } from './input';
import { isObject } from './jsonrpc';
import { legacyShape } from './legacy';
import { MetaKey, type RequestMeta } from './meta';
import { RawJson } from './paginate';
import { readPromptArguments } from './prompts';
import type { CompiledTemplate } from './resources';
import { openState, sealState } from './state';
import { TaskCreated } from './taskRuntime';
import type { CompiledTool } from './tools';
import type { CachePolicy, CallToolResult, JsonObject } from './types';

/** What the handlers need from the server that `createServer` compiled. */
export interface Registry {
  definition: ServerDefinition;
  tools: ReadonlyMap<string, CompiledTool>;
  prompts: ReadonlyMap<string, NonNullable<ServerDefinition['prompts']>[number]>;
  resources: ReadonlyMap<string, NonNullable<ServerDefinition['resources']>[number]>;
  templates: readonly CompiledTemplate[];
  completeResult: CompleteResult;
  cache(method: CacheableMethod, authenticated?: boolean): CachePolicy;
  stateTtl: number;
  toolTimeoutMs: number;
  maxResultChars: number;
}

/** What sealed state is bound to (spec basic/patterns/mrtr): made only when there is state to open or seal. */
const bindingOf = (method: string, salient: unknown, call: CallContext) => ({ method, salient, principal: call.principal });

/** Races a tool's answer against its time limit; at the limit, a tool error for the model and an abort for the handler. */
async function withTimeLimit(answer: Promise<CallToolResult | InputRequired>, name: string, limitMs: number, call: CallContext) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<CallToolResult>((resolve) => {
    timer = setTimeout(() => {
      resolve(errorResult(`Tool ${name} did not finish within ${limitMs / 1000} s; try again or narrow the request.`));
      call.abort(new DOMException(`tool ${name} timed out`, 'TimeoutError')); // after: the time limit wins the race
    }, limitMs);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

export function createHandlers({ definition, tools, prompts, resources, templates, completeResult, cache, stateTtl, toolTimeoutMs, maxResultChars }: Registry) {
  const serverMeta = { [MetaKey.serverInfo]: definition.info };
  /**
   * Runs a handler that may answer `InputRequired` (spec 2026-07-28 basic/patterns/mrtr):
   * reads `inputResponses`, opens `requestState`, and seals the state of the next round.
   */
  async function withInput<T extends object>(
    method: string,
    salient: unknown,
    params: JsonObject,
    meta: RequestMeta,
    call: CallContext,
    run: (context: HandlerContext) => Promise<T | InputRequired | McpError>,
    finish: (value: T, retry: boolean) => Reply,
  ): Promise<Reply> {
    const responses = readInputResponses(params);
    if (responses instanceof McpError) return { error: responses };
    let state;
    if (params.requestState !== undefined) {
      state = await openState(call.secret, bindingOf(method, salient, call), params.requestState);
      if (state instanceof McpError) return { error: state };
    }
    let value: T | InputRequired | McpError;
    try {
      value = await run(handlerContext(meta, call, { responses, state }, definition.logging === true));
    } catch (error) {
      if (error instanceof McpError) return { error };
      console.error(`${method} handler threw`, error);
      return { error: internalError() };
    }
    if (value instanceof McpError) return { error: value };
    if (value instanceof InputRequired && meta.era === 'legacy') return { error: cannotAskLegacyClient(method) };
    if (!(value instanceof InputRequired)) {
      return finish(value, params.inputResponses !== undefined || params.requestState !== undefined);
    }
    const refused = checkInputRequests(value, meta.clientCapabilities);
    if (refused) return { error: refused };
    const requestState = value.state === undefined ? undefined : await sealState(call.secret, bindingOf(method, salient, call), value.state, stateTtl);
    // An interim result: never cacheable, no caching hints (spec server/utilities/caching).
    return {
      result: { resultType: 'input_required', inputRequests: value.inputRequests, ...(requestState ? { requestState } : {}), _meta: serverMeta },
    };
  }

  const callTool: Handler = (params, meta, call) => {
    const name = params.name;
    if (typeof name !== 'string') return { error: invalidParams('params.name must be a string') };
    // Looked up once per request: by the edge when it checked the tool's policy (scopes,
    // client capabilities, header parameters: src/http/steps/checkToolPolicy.ts), else here.
    const tool = call.tool ?? tools.get(name);
    if (!tool) return { error: invalidParams(`Unknown tool: ${name}`, { name }) };
    // spec 2026-07-28 schema CallToolRequestParams: `arguments` is an object when present; null is a malformed request, not a tool input error
    if (params.arguments !== undefined && !isObject(params.arguments)) return { error: invalidParams('params.arguments must be an object') };
    const args = params.arguments ?? {};
    // spec 2026-07-28 server/tools, Error Handling: invalid input is a tool execution error the model can fix
    const invalid = tool.checkArguments(args);
    if (invalid) return completeResult(errorResult(`Invalid arguments for tool ${name}: ${invalid}`));
    // A task tool runs as a task when the client declared the Tasks extension (docs/tasks.md).
    const tasks = tool.definition.task ? definition.tasks : undefined;
    const asTask = tasks?.accepts(tool, meta);
    if (asTask instanceof McpError) return { error: asTask };
    const limitMs = tool.definition.timeoutMs ?? toolTimeoutMs;
    const runHere = async (context: HandlerContext) => {
      try {
        const answer = tool.definition.handler(args as never, context);
        // A handler that answers at once needs no clock; one that never settles is stopped at
        // the time limit (its signal aborts) and reported to the model.
        return answer instanceof Promise ? await withTimeLimit(answer, name, limitMs, call) : answer;
      } catch (error) {
        if (error instanceof ToolError) return errorResult(error.message);
        throw error;
      }
    };
    const run = asTask && tasks
      ? (context: HandlerContext) => tasks.call(tool, args, { responses: context.inputResponses, state: context.state }, meta, call)
      : runHere;
    return withInput('tools/call', { name, arguments: args }, params, meta, call, run, (result: CallToolResult | TaskCreated) => {
      if (result instanceof TaskCreated) return { result: { resultType: 'task', ...result.task, _meta: serverMeta } };
      if (!isObject(result) || !Array.isArray(result.content)) {
        console.error(`tool ${name} returned a result without a content array`);
        return { error: internalError() };
      }
      const badOutput = result.isError ? undefined : tool.checkOutput(result.structuredContent);
      if (badOutput) {
        console.error(`tool ${name} returned structuredContent that breaks its outputSchema: ${badOutput}`);
        return { error: internalError() };
      }
      // Serialized once here, both to bound its size and so the transport splices it as it is.
      const completed = completeResult(result).result;
      const shaped = meta.era === 'legacy' ? legacyShape(completed) : completed;
      const json = JSON.stringify(shaped);
      if (json.length > maxResultChars) {
        console.error(`tool ${name} returned ${json.length} characters, over the ${maxResultChars} limit`);
        return completeResult(errorResult(`Tool ${name} produced a result too large to return (${json.length} characters); ask for less.`));
      }
      return { result: new RawJson(json) };
    });
  };

  const getPrompt: Handler = (params, meta, call) => {
    const name = params.name;
    if (typeof name !== 'string') return { error: invalidParams('params.name must be a string') };
    const prompt = prompts.get(name);
    if (!prompt) return { error: invalidParams(`Unknown prompt: ${name}`, { name }) };
    const args = readPromptArguments(prompt, params.arguments);
    if (args instanceof McpError) return { error: args };
    return withInput('prompts/get', { name, arguments: args }, params, meta, call, async (context) => prompt.get(args, context), (result) => completeResult(result));
  };

  const readResource: Handler = (params, meta, call) => {
    const uri = params.uri;
    if (typeof uri !== 'string') return { error: invalidParams('params.uri must be a string') };
    // spec 2026-07-28 server/resources: -32602, not -32002 (which legacy clients still expect)
    const notFound = meta.era === 'legacy' ? resourceNotFoundLegacy(uri) : invalidParams(`Resource not found: ${uri}`, { uri });
    const fixed = resources.get(uri);
    let template: CompiledTemplate | undefined;
    let variables: Record<string, string> | undefined;
    for (const candidate of fixed ? [] : templates) {
      variables = candidate.match(uri);
      if (variables) {
        template = candidate;
        break;
      }
    }
    if (!fixed && !template) return { error: notFound };
    const policy = (fixed ?? template?.definition)?.cache ?? cache('resources/read', call.principal !== undefined);
    const run = async (context: HandlerContext) =>
      fixed ? fixed.read(context) : ((await template?.definition.read(uri, variables ?? {}, context)) ?? notFound);
    // A retry depends on answers that are not part of the cache key: immediately stale, private, no-store.
    return withInput('resources/read', { uri }, params, meta, call, run, (result, retry) =>
      retry ? { result: completeResult(result, { ttlMs: 0, cacheScope: 'private' }).result } : completeResult(result, policy),
    );
  };

  const completeArgument: Handler = async (params) => {
    const { ref, argument } = params;
    if (!isObject(ref) || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      return { error: invalidParams('params.ref must be an object and params.argument must have string "name" and "value"') };
    }
    const context = isObject(params.context) && isObject(params.context.arguments) ? (params.context.arguments as Record<string, string>) : {};
    let completer: Completer | undefined;
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const prompt = prompts.get(ref.name);
      if (!prompt) return { error: invalidParams(`Unknown prompt: ${ref.name}`) };
      completer = prompt.arguments?.find((a) => a.name === argument.name)?.complete;
    } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const template = templates.find((t) => t.definition.uriTemplate === ref.uri);
      if (!template) return { error: invalidParams(`Unknown resource template: ${ref.uri}`) };
      const completers = template.definition.complete ?? {};
      completer = Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
    } else {
      return { error: invalidParams('params.ref must be a ref/prompt with a name or a ref/resource with a uri') };
    }
    const values = completer ? await completer(argument.value, context) : [];
    // spec 2026-07-28 server/utilities/completion: at most 100 values per response
    return completeResult({ completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } });
  };

  return { callTool, getPrompt, readResource, completeArgument };
}

const errorResult = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });
