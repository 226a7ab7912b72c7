/**
 * `tools/call` (spec 2026-07-28 server/tools): the tool by name, admitted once (`findTool`:
 * visible to the caller, its scopes granted), then the client capabilities it requires (-32021),
 * its arguments against its `inputSchema` (a tool error the model can fix), then its handler,
 * both within the tool's time limit, directly (`invokeTool`) or through the extension that takes
 * the call over (the Tasks extension), in rounds when it asks the client for input.
 */
import { invalidParams, McpError, missingCapability } from '../errors.js';
import { OtherResult, type ToolCalls } from '../extension.js';
import {
  charactersOver,
  invokeTool,
  readArguments,
  RefusedArguments,
  type SerializedToolResult,
  type ToolRun,
} from '../invokeTool.js';
import { isObject, RawJson } from '../json.js';
import { declares } from '../meta.js';
import type { CompiledDefinition } from '../compiledDefinition.js';
import type { Caller, ItemMethod, McpRequest, Reply } from '../request.js';
import { resultJson } from '../resultJson.js';
import { serveRound, type Round } from '../rounds.js';
import type { CompiledTool } from '../tools.js';
import type { CallToolResult, JSONRPCRequest } from '../types.js';
import { refusalFor } from '../visibility.js';

export function callTool(compiled: CompiledDefinition, extensions: readonly ToolCalls[]): ItemMethod<CompiledTool> {
  // The server's result limit, made once per isolate, not per call.
  const tooLarge = charactersOver(compiled.maxResultChars);
  return { find: (message, _meta, caller) => findTool(compiled, message, caller), serve, headerParams };

  /** Serves a call of `tool`, admitted by `findTool`: found, visible to the caller, its scopes granted. */
  function serve(request: McpRequest, tool: CompiledTool): Reply | Promise<Reply> {
    const params = request.message.params ?? {};
    const name = tool.definition.name;
    // Most tools require no client capability: nothing is built for them.
    const required = tool.definition.requiresClientCapabilities;
    if (required?.length) {
      const missing = required.filter((feature) => !declares(request.meta.clientCapabilities, feature));
      if (missing.length > 0) return { error: missingCapability(missing) };
    }
    // spec 2026-07-28 schema CallToolRequestParams: `arguments` is an object when present; null is a malformed request, not a tool input error
    if (params.arguments !== undefined && !isObject(params.arguments))
      return { error: invalidParams('params.arguments must be an object') };
    const args = params.arguments ?? {};
    const limitMs = tool.definition.timeoutMs ?? compiled.toolTimeoutMs;
    const here = direct(compiled, request, tooLarge, limitMs);
    // `args` as sent (a task keeps them, state is bound to them); `value` as the handler takes them.
    const proceed = (value: unknown): Reply | Promise<Reply> => {
      if (value instanceof RefusedArguments) return finish(compiled, value.outcome);
      const taker = claimant(extensions, tool, request);
      if (taker instanceof McpError) return { error: taker };
      const run: Round<Outcome>['run'] = taker
        ? (_context, input) => taker.call(tool, args, input, request)
        : (context) => invokeTool(tool, value, context, here);
      return serveRound(compiled, request, {
        salient: { name, arguments: args },
        run,
        finish: (outcome) => finish(compiled, outcome),
      });
    };
    // A JSON Schema tool goes on at once; a Standard Schema's check may take time, within the tool's limit.
    const read = readArguments(tool, args, here);
    return read instanceof Promise ? read.then(proceed) : proceed(read);
  }
}

/**
 * The tool a `tools/call` names, admitted once per request (`../admission.ts`): one its
 * `visibleTo` rule hides does not exist for the caller; one whose scopes it lacks is 403, naming
 * the broadest it lacks (spec 2026-07-28 basic/authorization, Step-Up Authorization Flow).
 */
function findTool(
  compiled: CompiledDefinition,
  message: JSONRPCRequest,
  caller: Caller | undefined,
): CompiledTool | McpError {
  const name = message.params?.name;
  if (typeof name !== 'string') return invalidParams('params.name must be a string');
  const tool = compiled.tools.get(name);
  const refused = tool && refusalFor(tool.definition, caller, compiled.scopeHierarchy);
  if (!tool || refused === 'hidden') return invalidParams(`Unknown tool: ${name}`, { name });
  return refused ?? tool;
}

/** A tool's `Mcp-Param-*` headers, for the transport to compare with the arguments. */
const headerParams = (tool: CompiledTool) => tool.headerParams;

/** What a call ends with: a result run here (serialized once), or what the extension that took it answered. */
type Outcome = SerializedToolResult | CallToolResult | OtherResult;

function finish(compiled: CompiledDefinition, outcome: Outcome): Reply {
  if (outcome instanceof OtherResult) return { result: { ...outcome.result, _meta: compiled.serverMeta } };
  // Run here: serialized once by `direct`, both to bound its size and so the transport splices it as it is.
  if ('json' in outcome) return { result: new RawJson(outcome.json) };
  return compiled.finished(outcome);
}

/** The extension that takes this call over, none, or its refusal (spec extensions/tasks, Capability Negotiation). */
function claimant(
  extensions: readonly ToolCalls[],
  tool: CompiledTool,
  request: McpRequest,
): ToolCalls | McpError | undefined {
  for (const extension of extensions) {
    const claims = extension.claims(tool, request);
    if (claims instanceof McpError) return claims;
    if (claims) return extension;
  }
  return undefined;
}

/** How a tool runs when it answers this request itself: its time limit, its result as the client will get it. */
function direct(
  compiled: CompiledDefinition,
  request: McpRequest,
  tooLarge: ToolRun['tooLarge'],
  timeoutMs: number,
): ToolRun {
  return {
    timeoutMs,
    tooLarge,
    abort: (reason: unknown) => request.abort(reason),
    serialize: (result: CallToolResult) => resultJson(compiled.finished(result).result, request.meta.era === 'legacy'),
  };
}
