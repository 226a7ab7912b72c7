/**
 * The protocol core: a validated request in, a result or an error out. It knows nothing
 * of HTTP; everything that does not depend on the request is built once, in `createServer`.
 */
import { DEFAULT_CACHE, DEFAULT_PAGE_SIZE, ToolError, type CacheableMethod, type ServerDefinition, type ToolContext } from './define';
import { internalError, invalidParams, McpError, methodNotFound, missingCapability, unsupportedVersion } from './errors';
import { isObject } from './jsonrpc';
import { declares, LOG_LEVELS, MetaKey, type RequestMeta } from './meta';
import { paginate, RawJson } from './paginate';
import { compileTool, type CompiledTool } from './tools';
import type { CachePolicy, CallToolResult, JsonObject, JSONRPCNotification, JSONRPCRequest, ServerCapabilities } from './types';

/** Protocol revisions served (spec 2026-07-28 basic/versioning). */
export const SUPPORTED_VERSIONS = ['2026-07-28'] as const;

/** What the transport lends a request: its cancellation signal, the Worker env, and a way to stream notifications. */
export interface CallContext {
  signal: AbortSignal;
  env: Env;
  /** Sends a request-scoped notification on this request's response stream. */
  notify(notification: JSONRPCNotification): void;
}

/** The outcome of one request; `cache` is set only on cacheable results. */
export type Reply = { result: object | RawJson; cache?: CachePolicy; error?: undefined } | { error: McpError; result?: undefined };

type Handler = (params: JsonObject, meta: RequestMeta, call: CallContext) => Reply | Promise<Reply>;

export interface McpServer {
  readonly supportedVersions: readonly string[];
  readonly capabilities: ServerCapabilities;
  /** Looks a tool up by name (for `Mcp-Param-*` header checks). */
  tool(name: string): CompiledTool | undefined;
  /** Serves one request whose `_meta` has already been validated. */
  handle(request: JSONRPCRequest, meta: RequestMeta, call: CallContext): Promise<Reply>;
}

export function createServer(definition: ServerDefinition): McpServer {
  const cache = (method: CacheableMethod): CachePolicy => definition.cache?.[method] ?? DEFAULT_CACHE[method];
  const pageSize = definition.pageSize ?? DEFAULT_PAGE_SIZE;
  const serverMeta = { [MetaKey.serverInfo]: definition.info };
  const tools = new Map<string, CompiledTool>();
  for (const tool of definition.tools ?? []) {
    if (tools.has(tool.name)) throw new Error(`tool "${tool.name}" is defined twice`);
    tools.set(tool.name, compileTool(tool));
  }

  // Only what is really served is advertised (spec 2026-07-28 server/discover). No
  // listChanged: a stateless Worker has no list change to announce.
  const capabilities: ServerCapabilities = {};
  if (tools.size > 0) capabilities.tools = {};

  const cacheable = (method: CacheableMethod, body: object) => ({
    resultType: 'complete',
    ...body,
    ...cache(method),
    _meta: serverMeta,
  });
  const discover = new RawJson(
    JSON.stringify(
      cacheable('server/discover', {
        supportedVersions: SUPPORTED_VERSIONS,
        capabilities,
        ...(definition.instructions ? { instructions: definition.instructions } : {}),
      }),
    ),
  );
  const toolPages = paginate('tools/list', [...tools.values()], pageSize, (page, nextCursor) =>
    cacheable('tools/list', { tools: page.map((t) => t.listed), ...(nextCursor ? { nextCursor } : {}) }),
  );

  const listPage = (pages: Map<string | undefined, RawJson>, method: CacheableMethod): Handler => (params) => {
    const cursor = params.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') return { error: invalidParams('params.cursor must be a string') };
    const page = pages.get(cursor);
    return page ? { result: page, cache: cache(method) } : { error: invalidParams('unknown cursor', { cursor }) };
  };

  const complete = (result: object): Reply => ({ result: { resultType: 'complete', ...result, _meta: { ...(result as JsonObject)._meta as object, ...serverMeta } } });

  const callTool: Handler = async (params, meta, call) => {
    const name = params.name;
    if (typeof name !== 'string') return { error: invalidParams('params.name must be a string') };
    const tool = tools.get(name);
    if (!tool) return { error: invalidParams(`Unknown tool: ${name}`, { name }) };
    const args = params.arguments ?? {};
    if (!isObject(args)) return { error: invalidParams('params.arguments must be an object') };
    const missing = (tool.definition.requiresClientCapabilities ?? []).filter((c) => !declares(meta.clientCapabilities, c));
    if (missing.length > 0) return { error: missingCapability(Object.fromEntries(missing.map((c) => [c, {}]))) };

    // spec 2026-07-28 server/tools, Error Handling: invalid input is a tool execution error the model can fix
    const invalid = tool.checkArguments(args);
    if (invalid) return complete(errorResult(`Invalid arguments for tool ${name}: ${invalid}`));
    let result: CallToolResult;
    try {
      result = await tool.definition.handler(args as never, toolContext(meta, call));
    } catch (error) {
      if (error instanceof ToolError) return complete(errorResult(error.message));
      if (error instanceof McpError) return { error };
      console.error(`tool ${name} threw`, error);
      return { error: internalError() };
    }
    if (!isObject(result) || !Array.isArray(result.content)) {
      console.error(`tool ${name} returned a result without a content array`);
      return { error: internalError() };
    }
    const badOutput = result.isError ? undefined : tool.checkOutput(result.structuredContent);
    if (badOutput) {
      console.error(`tool ${name} returned structuredContent that breaks its outputSchema: ${badOutput}`);
      return { error: internalError() };
    }
    return complete(result);
  };

  const methods = new Map<string, Handler>([['server/discover', () => ({ result: discover, cache: cache('server/discover') })]]);
  if (tools.size > 0) {
    methods.set('tools/list', listPage(toolPages, 'tools/list'));
    methods.set('tools/call', callTool);
  }

  return {
    supportedVersions: SUPPORTED_VERSIONS,
    capabilities,
    tool: (name) => tools.get(name),
    async handle(request, meta, call) {
      // spec 2026-07-28 basic/versioning: an unsupported version is refused on every method
      if (!(SUPPORTED_VERSIONS as readonly string[]).includes(meta.protocolVersion)) {
        return { error: unsupportedVersion(SUPPORTED_VERSIONS, meta.protocolVersion) };
      }
      const handler = methods.get(request.method);
      if (!handler) return { error: methodNotFound(request.method) };
      return handler(request.params ?? {}, meta, call);
    },
  };
}

const errorResult = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** Binds progress and logging to this request: both are no-ops unless the request asked for them. */
function toolContext(meta: RequestMeta, call: CallContext): ToolContext {
  let lastProgress = -Infinity;
  const minLevel = meta.logLevel ? LOG_LEVELS.indexOf(meta.logLevel) : Infinity;
  return {
    signal: call.signal,
    env: call.env,
    client: { protocolVersion: meta.protocolVersion, capabilities: meta.clientCapabilities, info: meta.clientInfo },
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
