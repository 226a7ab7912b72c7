/**
 * Multi round-trip requests (spec 2026-07-28 basic/patterns/mrtr), for the methods that run the
 * author's code (`tools/call`, `prompts/get`, `resources/read`): the client's `inputResponses`
 * are read and its `requestState` opened before the handler runs; an `InputRequired` answer is
 * checked against what the client can do and its state sealed for the next round; anything else
 * is the method's to finish.
 */
import type { HandlerContext } from './define.js';
import { cannotAskLegacyClient, internalError, McpError } from './errors.js';
import type { RoundInput } from './extension.js';
import { handlerContext } from './handlerContext.js';
import { checkInputRequests, InputRequired, readInputResponses } from './input.js';
import type { CompiledDefinition } from './compiledDefinition.js';
import type { McpRequest, Reply } from './request.js';
import { openState, sealState } from './state.js';

/** One round of a method that may ask for input. */
export interface Round<T> {
  /** What sealed state is bound to besides the method and the caller: the request's salient params (spec basic/patterns/mrtr). */
  salient: unknown;
  /** Runs the author's code with this round's input: at once, or in a promise. */
  run(context: HandlerContext, input: RoundInput): Ran<T> | Promise<Ran<T>>;
  /** The reply to a finished value; `retry` when this round answered an earlier one. */
  finish(value: T, retry: boolean): Reply;
}

/** What the author's code gave: a value, a request for input, or a JSON-RPC error. */
type Ran<T> = T | InputRequired | McpError;

/**
 * Serves one round of `request` for `server`. A round with no state to open whose code answers at
 * once is served without a promise (a tool that adds two numbers): the reply goes back as the
 * core's other synchronous replies do.
 */
export function serveRound<T extends object>(
  compiled: CompiledDefinition,
  request: McpRequest,
  round: Round<T>,
): Reply | Promise<Reply> {
  const params = request.message.params ?? {};
  const responses = readInputResponses(params);
  if (responses instanceof McpError) return { error: responses };
  if (params.requestState === undefined) return runRound(compiled, request, round, { responses, state: undefined });
  return openState(request.secret, binding(request, round.salient), params.requestState).then((state) =>
    state instanceof McpError ? { error: state } : runRound(compiled, request, round, { responses, state }),
  );
}

/** Runs the round's code with its input; whatever it throws, at once or in its promise, is answered here. */
function runRound<T extends object>(
  compiled: CompiledDefinition,
  request: McpRequest,
  round: Round<T>,
  input: RoundInput,
): Reply | Promise<Reply> {
  const { method } = request.message;
  let ran: Ran<T> | Promise<Ran<T>>;
  try {
    ran = round.run(handlerContext(request, input, compiled.logging), input);
  } catch (error) {
    return thrown(method, error);
  }
  return ran instanceof Promise
    ? ran.then(
        (value) => roundReply(compiled, request, round, value),
        (error: unknown) => thrown(method, error),
      )
    : roundReply(compiled, request, round, ran);
}

/** What the round's code threw: a JSON-RPC error is the reply; anything else is logged and -32603, with nothing from inside. */
function thrown(method: string, error: unknown): Reply {
  if (error instanceof McpError) return { error };
  console.error(`${method} handler threw`, error);
  return { error: internalError() };
}

/** The reply to what the round's code gave: finished, an error, or the interim result that asks for input. */
function roundReply<T extends object>(
  compiled: CompiledDefinition,
  request: McpRequest,
  round: Round<T>,
  value: Ran<T>,
): Reply | Promise<Reply> {
  const { method } = request.message;
  const params = request.message.params ?? {};
  if (value instanceof McpError) return { error: value };
  if (!(value instanceof InputRequired))
    return round.finish(value, params.inputResponses !== undefined || params.requestState !== undefined);
  if (request.meta.era === 'legacy') return { error: cannotAskLegacyClient(method) };
  const refused = checkInputRequests(value, request.meta.clientCapabilities);
  if (refused) return { error: refused };
  if (value.state === undefined) return inputRequired(compiled, value, undefined);
  return sealState(request.secret, binding(request, round.salient), value.state, compiled.requestStateTtlMs).then(
    (requestState) => inputRequired(compiled, value, requestState),
  );
}

/** An interim result: never cacheable, no caching hints (spec server/utilities/caching). */
const inputRequired = (
  compiled: CompiledDefinition,
  value: InputRequired,
  requestState: string | undefined,
): Reply => ({
  result: {
    resultType: 'input_required',
    inputRequests: value.inputRequests,
    ...(requestState ? { requestState } : {}),
    _meta: compiled.serverMeta,
  },
});

/** What sealed state is bound to: made only when there is state to open or seal. */
const binding = (request: McpRequest, salient: unknown) => ({
  method: request.message.method,
  salient,
  principal: request.caller?.subject,
});
