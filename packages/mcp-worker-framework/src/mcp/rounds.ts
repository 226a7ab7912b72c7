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
  /** Runs the author's code with this round's input. */
  run(context: HandlerContext, input: RoundInput): Promise<T | InputRequired | McpError>;
  /** The reply to a finished value; `retry` when this round answered an earlier one. */
  finish(value: T, retry: boolean): Reply;
}

/** Serves one round of `request` for `server`. */
export async function serveRound<T extends object>(
  compiled: CompiledDefinition,
  request: McpRequest,
  round: Round<T>,
): Promise<Reply> {
  const { method } = request.message;
  const params = request.message.params ?? {};
  const responses = readInputResponses(params);
  if (responses instanceof McpError) return { error: responses };
  let state: RoundInput['state'];
  if (params.requestState !== undefined) {
    const opened = await openState(request.secret, binding(request, round.salient), params.requestState);
    if (opened instanceof McpError) return { error: opened };
    state = opened;
  }
  const input = { responses, state };
  let value: T | InputRequired | McpError;
  try {
    value = await round.run(handlerContext(request, input, compiled.logging), input);
  } catch (error) {
    if (error instanceof McpError) return { error };
    console.error(`${method} handler threw`, error);
    return { error: internalError() };
  }
  if (value instanceof McpError) return { error: value };
  if (!(value instanceof InputRequired))
    return round.finish(value, params.inputResponses !== undefined || params.requestState !== undefined);
  if (request.meta.era === 'legacy') return { error: cannotAskLegacyClient(method) };
  const refused = checkInputRequests(value, request.meta.clientCapabilities);
  if (refused) return { error: refused };
  const requestState =
    value.state === undefined
      ? undefined
      : await sealState(request.secret, binding(request, round.salient), value.state, compiled.requestStateTtlMs);
  // An interim result: never cacheable, no caching hints (spec server/utilities/caching).
  return {
    result: {
      resultType: 'input_required',
      inputRequests: value.inputRequests,
      ...(requestState ? { requestState } : {}),
      _meta: compiled.serverMeta,
    },
  };
}

/** What sealed state is bound to: made only when there is state to open or seal. */
const binding = (request: McpRequest, salient: unknown) => ({
  method: request.message.method,
  salient,
  principal: request.caller?.subject,
});
