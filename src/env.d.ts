/** Secrets are not in wrangler.toml, so `wrangler types` cannot see them: declared here. */
interface Env {
  /** Key for sealing MRTR `requestState` (`wrangler secret put MCP_STATE_SECRET`). */
  MCP_STATE_SECRET?: string;
  /** Optional var: subscriptions/listen streams per isolate (default 100). */
  LISTEN_MAX_STREAMS?: string;
}
