/**
 * One structured JSON line per request, for Workers Logs (`[observability]` in wrangler.toml):
 * what was asked and how it ended, never tokens or arguments. On with REQUEST_LOGS = "on".
 */
export interface RequestLog {
  method?: string;
  /** Tool or prompt name, or resource URI. */
  name?: string;
  status?: number;
  /** JSON-RPC error code, when the answer was an error. */
  code?: number;
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  client?: string;
  traceparent?: string;
  tracestate?: string;
}

export function writeLog(log: RequestLog, startedAt: number): void {
  console.log(JSON.stringify({ mcp: log, ms: Math.round((performance.now() - startedAt) * 10) / 10 }));
}
