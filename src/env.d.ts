/** Secrets are not in wrangler.toml, so `wrangler types` cannot see them: declared here. */
interface Env {
  /** Key for sealing MRTR `requestState` (`wrangler secret put MCP_STATE_SECRET`). */
  MCP_STATE_SECRET?: string;
}
