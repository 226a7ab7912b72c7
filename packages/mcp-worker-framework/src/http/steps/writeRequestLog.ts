import type { HttpContext } from '../context.js';
import { outcomeOf } from '../observability/requestAttributes.js';

/**
 * One JSON line per request, refusals included, for Workers Logs (`[observability]` in
 * wrangler.toml); with REQUEST_LOGS = "on" for every request, with "errors" (the default) only
 * for one answered with an error or a refusal. It is written when the answer has really
 * ended: at once for a plain answer, when the stream closes for a streamed one (kept alive
 * with `waitUntil`), so the status, the JSON-RPC error code (also one sent as a stream's last
 * event) and the duration are the final ones. Never tokens or arguments.
 */
export function writeRequestLog(response: Response, context: HttpContext): undefined {
  const mode = context.settings.requestLogs;
  if (mode === 'off') return undefined;
  const status = response.status;
  // A plain answer that succeeded is known here, before any work: "errors" writes nothing for it.
  if (mode === 'errors' && !context.streamEnded && !context.error && status < 400) return undefined;
  context.whenEnded((endedBy) => {
    const outcome = outcomeOf(context, status, endedBy);
    if (mode === 'errors' && outcome['error.type'] === undefined) return;
    const attributes = JSON.stringify(outcome);
    const ms = Math.round((performance.now() - context.startedAt) * 10) / 10;
    console.log(`${attributes.slice(0, -1)},"duration_ms":${ms}}`);
  });
  return undefined;
}
