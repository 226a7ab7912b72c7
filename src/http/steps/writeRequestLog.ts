import type { HttpContext } from '../context';
import { outcomeOf } from '../requestAttributes';

/**
 * One JSON line per request, refusals included, for Workers Logs (`[observability]` in
 * wrangler.toml); on with REQUEST_LOGS = "on". It is written when the answer has really
 * ended: at once for a plain answer, when the stream closes for a streamed one (kept alive
 * with `waitUntil`), so the status, the JSON-RPC error code (also one sent as a stream's last
 * event) and the duration are the final ones. Never tokens or arguments.
 */
export function writeRequestLog(response: Response, context: HttpContext): undefined {
  if (!context.settings.requestLogs) return undefined;
  const status = response.status;
  context.whenEnded((endedBy) => {
    const attributes = JSON.stringify(outcomeOf(context, status, endedBy));
    const ms = Math.round((performance.now() - context.startedAt) * 10) / 10;
    console.log(`${attributes.slice(0, -1)},"duration_ms":${ms}}`);
  });
  return undefined;
}
