/** The `HandlerContext` a tool, prompt or resource handler receives, bound to one request. */
import type { HandlerContext } from './define';
import { declares, LOG_LEVELS, type RequestMeta } from './meta';
import type { CallContext } from './handler';
import type { JsonObject, JsonValue } from './types';

export interface RoundInput {
  responses: Record<string, JsonObject>;
  state: JsonValue | undefined;
}

/** Progress and logging are no-ops unless the request asked for them (and, for logs, the server declared logging). */
export function handlerContext(meta: RequestMeta, call: CallContext, input: RoundInput, logging: boolean): HandlerContext {
  let lastProgress = -Infinity;
  const minLevel = logging && meta.logLevel ? LOG_LEVELS.indexOf(meta.logLevel) : Infinity;
  return {
    get signal() {
      return call.signal;
    },
    env: call.env,
    client: { protocolVersion: meta.protocolVersion, capabilities: meta.clientCapabilities, info: meta.clientInfo },
    can: (capability) => declares(meta.clientCapabilities, capability),
    inputResponses: input.responses,
    state: input.state,
    principal: call.principal,
    scopes: call.scopes ?? [],
    // Made on first use: the trace context comes from the request's headers, read only if needed.
    get fetch() {
      return tracedFetch(call.trace);
    },
    progress(progress, total, message) {
      // spec 2026-07-28 basic/patterns/progress: only for a progressToken, and the value MUST increase
      if (meta.progressToken === undefined || !(progress > lastProgress)) return;
      lastProgress = progress;
      call.notify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: meta.progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
      });
    },
    log(level, data, logger) {
      // spec 2026-07-28 server/utilities/logging: only when the request set a level, at or above it
      if (LOG_LEVELS.indexOf(level) < minLevel) return;
      call.notify({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data, ...(logger ? { logger } : {}) } });
    },
  };
}

/** Adds the request's trace context to outbound requests that do not set their own. */
function tracedFetch(trace: CallContext['trace']): typeof fetch {
  if (!trace?.traceparent) return fetch;
  return (input, init) => {
    const request = new Request(input, init);
    if (!request.headers.has('traceparent')) request.headers.set('traceparent', trace.traceparent!);
    if (trace.tracestate && !request.headers.has('tracestate')) request.headers.set('tracestate', trace.tracestate);
    return fetch(request);
  };
}
