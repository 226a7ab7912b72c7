/** The `HandlerContext` a tool, prompt or resource handler receives, bound to one request. */
import type { HandlerContext } from './define';
import { declares, LOG_LEVELS, type RequestMeta } from './meta';
import type { CallContext } from './handler';
import type { JsonObject, JsonValue } from './types';

export interface RoundInput {
  responses: Record<string, JsonObject>;
  state: JsonValue | undefined;
}

const NO_SCOPES: readonly string[] = Object.freeze([]);

/** Progress and logging are no-ops unless the request asked for them (and, for logs, the server declared logging). */
export function handlerContext(meta: RequestMeta, call: CallContext, input: RoundInput, logging: boolean): HandlerContext {
  return new RequestContext(meta, call, input, logging);
}

/**
 * One per request. What few handlers use (the client's description, the traced `fetch`,
 * `progress`, `log`, `can`) is made on first use by getters on the prototype: a request
 * allocates one small object here, not a dozen closures.
 */
class RequestContext implements HandlerContext {
  readonly env: Env;
  readonly inputResponses: Readonly<Record<string, JsonObject>>;
  readonly state: JsonValue | undefined;
  readonly principal: string | undefined;
  readonly scopes: readonly string[];
  task?: HandlerContext['task'];
  private lastProgress = -Infinity;
  private boundCan: HandlerContext['can'] | undefined = undefined;
  private boundProgress: HandlerContext['progress'] | undefined = undefined;
  private boundLog: HandlerContext['log'] | undefined = undefined;
  private readonly minLevel: number;

  constructor(
    private readonly meta: RequestMeta,
    private readonly call: CallContext,
    input: RoundInput,
    logging: boolean,
  ) {
    this.env = call.env;
    this.inputResponses = input.responses;
    this.state = input.state;
    this.principal = call.principal;
    this.scopes = call.scopes ?? NO_SCOPES;
    this.minLevel = logging && meta.logLevel ? LOG_LEVELS.indexOf(meta.logLevel) : Infinity;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  get client(): HandlerContext['client'] {
    const { meta } = this;
    return { protocolVersion: meta.protocolVersion, capabilities: meta.clientCapabilities, info: meta.clientInfo };
  }

  // Made on use: the trace context comes from the request's headers, read only if needed.
  get fetch(): typeof fetch {
    return tracedFetch(this.call.trace);
  }

  // Handlers take these apart (`{ progress, log }`), so each is a function bound to this
  // request, made when first asked for.
  get can(): HandlerContext['can'] {
    return (this.boundCan ??= (capability) => declares(this.meta.clientCapabilities, capability));
  }

  get progress(): HandlerContext['progress'] {
    return (this.boundProgress ??= (progress, total, message) => {
      const { progressToken } = this.meta;
      // spec 2026-07-28 basic/patterns/progress: only for a progressToken, and the value MUST increase
      if (progressToken === undefined || !(progress > this.lastProgress)) return;
      this.lastProgress = progress;
      this.call.notify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
      });
    });
  }

  get log(): HandlerContext['log'] {
    return (this.boundLog ??= (level, data, logger) => {
      // spec 2026-07-28 server/utilities/logging: only when the request set a level, at or above it
      if (LOG_LEVELS.indexOf(level) < this.minLevel) return;
      this.call.notify({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data, ...(logger ? { logger } : {}) } });
    });
  }
}

/** Adds the request's trace context to outbound requests that do not set their own. */
function tracedFetch(trace: CallContext['trace']): typeof fetch {
  if (!trace) return fetch;
  return (input, init) => {
    const request = new Request(input, init);
    if (!request.headers.has('traceparent')) request.headers.set('traceparent', trace.traceparent);
    if (trace.tracestate && !request.headers.has('tracestate')) request.headers.set('tracestate', trace.tracestate);
    return fetch(request);
  };
}
