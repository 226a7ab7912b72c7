/**
 * Workers' own tracing (`[observability.traces]` in wrangler.toml), with no dependency: the
 * runtime lends `ctx.tracing`, whose spans it exports with the rest of the request's trace
 * (the platform's own spans: the fetch handler, every subrequest). Typed here with only what
 * the edge uses, so the Worker still runs where the runtime has no such API (plain Node, an
 * older workerd): there is simply no span.
 */
import { readTraceContext, type RequestMeta, type TraceContext } from '../../mcp/internal.js';

/** The part of the runtime's `Span` the edge uses. */
export interface TraceSpan {
  readonly isTraced: boolean;
  setAttributes(attributes: Record<string, string | number | boolean | undefined>): unknown;
  updateName(name: string): unknown;
  setStatus(status: { code: 'ok' | 'error'; message?: string }): unknown;
  end(): void;
}

interface Tracing {
  startSpan(name: string): TraceSpan;
  getActiveSpan?(): { readonly isTraced: boolean } | undefined;
}

/**
 * Starts a span when this request is traced, else undefined. An untraced span (a request the
 * sampling left out, or the local runtime, which traces nothing) is dropped at once, so the
 * request pays nothing more for it.
 */
export function startSpan(ctx: ExecutionContext | undefined, name: string): TraceSpan | undefined {
  const tracing = (ctx as { tracing?: Tracing } | undefined)?.tracing;
  if (typeof tracing?.startSpan !== 'function') return undefined;
  // The runtime's own span of this request says whether it is traced: cheaper to ask than to
  // open a span and drop it.
  if (tracing.getActiveSpan?.()?.isTraced === false) return undefined;
  const span = tracing.startSpan(name);
  if (span.isTraced) return span;
  span.end();
  return undefined;
}

/**
 * The caller's W3C trace context: `_meta`'s when it carries a valid one (spec 2026-07-28
 * basic/index, `_meta`), else the `traceparent`/`tracestate` headers', validated the same way;
 * never a mix of the two. What the span, the log line and a handler's upstream fetches carry.
 */
export function callerTrace(meta: RequestMeta | undefined, headers: Headers): TraceContext | undefined {
  return meta?.trace ?? readTraceContext(headers.get('traceparent'), headers.get('tracestate'));
}
