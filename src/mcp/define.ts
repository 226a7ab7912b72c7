/**
 * The public API a server author uses: plain data plus a handler for each tool, and one
 * `ServerDefinition` that lists them. `src/server.ts` is where a fork fills these in.
 */
import type { RequestMeta } from './meta';
import type { CachePolicy, CallToolResult, Implementation, LoggingLevel, Tool } from './types';

/** What a tool handler may use besides its arguments. Nothing here outlives the request. */
export interface ToolContext {
  /** Aborts when the client closes the response stream (spec 2026-07-28 streamable-http, Cancellation). */
  signal: AbortSignal;
  /** The Worker's bindings, vars and secrets. */
  env: Env;
  /** What the client declared on this request. */
  client: { protocolVersion: string; capabilities: RequestMeta['clientCapabilities']; info?: Implementation };
  /** Reports progress; sent only when the request carried a progressToken, and only while it increases. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log message on this request's stream, only at or above the level the request asked for. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
}

/** A tool: its spec `Tool` description plus the handler that runs it. */
export interface ToolDefinition<Args = Record<string, unknown>> extends Tool {
  /** Client capabilities the tool cannot run without; a request lacking one gets -32021. */
  requiresClientCapabilities?: readonly string[];
  handler(args: Args, context: ToolContext): CallToolResult | Promise<CallToolResult>;
}

/** A tool whatever its argument type (handlers are checked where they are defined). */
export type AnyTool = ToolDefinition<never>;

/** Identity function that gives a tool literal its type; `Args` is what `inputSchema` admits. */
export const defineTool = <Args = Record<string, unknown>>(tool: ToolDefinition<Args>): ToolDefinition<Args> => tool;

/**
 * Thrown by a handler for an expected failure the model can act on (bad upstream answer,
 * value out of range): it becomes a result with `isError: true` and this message
 * (spec 2026-07-28 server/tools, Error Handling: tool execution errors).
 */
export class ToolError extends Error {}

/** Shorthand for a result with one text block. */
export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Methods whose results carry caching hints (spec 2026-07-28 server/utilities/caching). */
export type CacheableMethod = 'server/discover' | 'tools/list';

export interface ServerDefinition {
  /** `serverInfo`: sent in `_meta` of every result. */
  info: Implementation;
  /** Guidance for the model on how to use this server, returned by `server/discover`. */
  instructions?: string;
  tools?: readonly AnyTool[];
  /** Items per page of every list result. */
  pageSize?: number;
  /** Caching hints per method; anything not given uses `DEFAULT_CACHE`. */
  cache?: Partial<Record<CacheableMethod, CachePolicy>>;
}

/** Lists and discover are the same for every caller: public, and fresh for a while. */
export const DEFAULT_CACHE: Readonly<Record<CacheableMethod, CachePolicy>> = {
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
  'tools/list': { ttlMs: 300_000, cacheScope: 'public' },
};

export const DEFAULT_PAGE_SIZE = 50;
