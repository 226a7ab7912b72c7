/** The `HandlerContext` a tool, prompt or resource handler receives: the author's view of one request. */
import type { HandlerContext } from './define.js';
import type { RoundInput } from './extension.js';
import { declares, LOG_LEVELS } from './meta.js';
import type { Caller, McpRequest } from './request.js';
import type { JsonObject, JsonValue } from './types.js';
import type { WorkerEnv } from './env.js';

/** Progress and logging are no-ops unless the request asked for them (and, for logs, the server declared logging). */
export function handlerContext(request: McpRequest, input: RoundInput, logging: boolean): HandlerContext {
  return new RequestContext(request, input, logging);
}

/**
 * One per request. What few handlers use (the client's description, the traced `fetch`,
 * `progress`, `log`, `can`) is made on first use by getters on the prototype: a request
 * allocates one small object here, not a dozen closures.
 */
class RequestContext implements HandlerContext {
  readonly env: WorkerEnv;
  readonly inputResponses: Readonly<Record<string, JsonObject>>;
  readonly state: JsonValue | undefined;
  readonly caller: Caller | undefined;
  private lastProgress = -Infinity;
  private boundCan: HandlerContext['can'] | undefined = undefined;
  private boundProgress: HandlerContext['progress'] | undefined = undefined;
  private boundLog: HandlerContext['log'] | undefined = undefined;
  private readonly minLevel: number;

  constructor(
    private readonly request: McpRequest,
    input: RoundInput,
    logging: boolean,
  ) {
    this.env = request.env;
    this.inputResponses = input.responses;
    this.state = input.state;
    this.caller = request.caller;
    this.minLevel = logging && request.meta.logLevel ? LOG_LEVELS.indexOf(request.meta.logLevel) : Infinity;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  get client(): HandlerContext['client'] {
    const { meta } = this.request;
    return { protocolVersion: meta.protocolVersion, capabilities: meta.clientCapabilities, info: meta.clientInfo };
  }

  // Made on use: the trace context comes from the request's headers, read only if needed.
  get fetch(): typeof fetch {
    return tracedFetch(this.request.trace);
  }

  // Handlers take these apart (`{ progress, log }`), so each is a function bound to this
  // request, made when first asked for.
  get can(): HandlerContext['can'] {
    return (this.boundCan ??= (capability) => declares(this.request.meta.clientCapabilities, capability));
  }

  get progress(): HandlerContext['progress'] {
    return (this.boundProgress ??= (progress, total, message) => {
      const { progressToken } = this.request.meta;
      // spec 2026-07-28 basic/patterns/progress: only for a progressToken, and the value MUST increase
      if (progressToken === undefined || !(progress > this.lastProgress)) return;
      this.lastProgress = progress;
      this.request.notify({
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
      this.request.notify({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level, data, ...(logger ? { logger } : {}) },
      });
    });
  }
}

/** Adds the request's trace context to outbound requests that do not set their own. */
function tracedFetch(trace: McpRequest['trace']): typeof fetch {
  if (!trace) return fetch;
  return (input, init) => {
    const request = new Request(input, init);
    if (!request.headers.has('traceparent')) request.headers.set('traceparent', trace.traceparent);
    if (trace.tracestate && !request.headers.has('tracestate')) request.headers.set('tracestate', trace.tracestate);
    return fetch(request);
  };
}
