/**
 * The protocol core: a validated request in, a result or an error out. It knows nothing
 * of HTTP; everything that does not depend on the request is built once, in `createServer`.
 */
import { DEFAULT_CACHE, DEFAULT_MAX_RESULT_CHARS, DEFAULT_PAGE_SIZE, DEFAULT_REQUEST_STATE_TTL_MS, DEFAULT_TOOL_TIMEOUT_MS, type CacheableMethod } from './define';
import type { ServerDefinition } from './serverDefinition';
import { invalidParams, type McpError, methodNotFound, unsupportedVersion } from './errors';
import type { CallContext, CompleteResult, Handler, Reply } from './handler';
import { createHandlers } from './handlers';
import { isObject } from './jsonrpc';
import { LEGACY_VERSIONS, legacyMethods, legacyShape, SERVED_WITH_LEGACY } from './legacy';
import { MetaKey, SUPPORTED_VERSIONS, type RequestMeta } from './meta';
import { paginate, RawJson } from './paginate';
import { listedPrompt } from './prompts';
import { compileTemplate, listedResource } from './resources';
import { TASKS_EXTENSION, type TaskRuntime } from './taskRuntime';
import { compileScopeHierarchy, type ScopeHierarchy } from './scopes';
import { compileTool, type CompiledTool } from './tools';
import type { CachePolicy, JsonObject, JSONRPCRequest, ServerCapabilities } from './types';

export interface McpServer {
  /** The versions a modern request may name. */
  readonly supportedVersions: readonly string[];
  /** Every version served, for discover and -32022: the modern ones, then the legacy ones when they are served. */
  servedVersions(servesLegacy: boolean): readonly string[];
  readonly capabilities: ServerCapabilities;
  /** Looks a tool up by name (for `Mcp-Param-*` header checks). */
  tool(name: string): CompiledTool | undefined;
  /** Which scopes imply which (`scopeHierarchy`), for every scope check and challenge. */
  readonly scopeHierarchy: ScopeHierarchy;
  /**
   * Serves one request whose `_meta` has already been validated; a reply the core has at once
   * (discover, a list) comes without a promise.
   */
  handle(request: JSONRPCRequest, meta: RequestMeta, call: CallContext): Reply | Promise<Reply>;
}

export function createServer(definition: ServerDefinition): McpServer {
  // Principal-scoped caching: a result computed for an authenticated caller is private
  // unless the definition says explicitly that it is public (spec server/utilities/caching).
  const privately = Object.fromEntries(
    Object.entries(DEFAULT_CACHE).map(([method, policy]) => [method, { ...policy, cacheScope: 'private' as const }]),
  ) as Record<CacheableMethod, CachePolicy>;
  const cache = (method: CacheableMethod, authenticated = false): CachePolicy =>
    definition.cache?.[method] ?? (authenticated ? privately[method] : DEFAULT_CACHE[method]);
  const pageSize = definition.pageSize ?? DEFAULT_PAGE_SIZE;
  const stateTtl = definition.requestStateTtlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
  const toolTimeoutMs = definition.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const maxResultChars = definition.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  const serverMeta = { [MetaKey.serverInfo]: definition.info };
  const tools = byName((definition.tools ?? []).map(compileTool), (t) => t.definition.name, 'tool');
  const prompts = byName(definition.prompts ?? [], (p) => p.name, 'prompt');
  const resources = byName(definition.resources ?? [], (r) => r.uri, 'resource');
  const templates = (definition.resourceTemplates ?? []).map(compileTemplate);
  const scopeHierarchy = compileScopeHierarchy(definition.scopeHierarchy);
  const hasCompleters =
    templates.some((t) => t.definition.complete) || [...prompts.values()].some((p) => p.arguments?.some((a) => a.complete));

  // Only what is really served is advertised (spec 2026-07-28 server/discover). No
  // listChanged: the lists of a deployed Worker do not change while a client listens.
  const capabilities: ServerCapabilities = {};
  if (tools.size > 0) capabilities.tools = {};
  if (prompts.size > 0) capabilities.prompts = {};
  if (resources.size > 0 || templates.length > 0) capabilities.resources = {};
  if (hasCompleters) capabilities.completions = {};
  if (definition.logging) capabilities.logging = {};
  const tasks = taskRuntime(definition, tools);
  if (tasks) capabilities.extensions = { [TASKS_EXTENSION]: {} };

  const completeResult: CompleteResult = (result, policy) => ({
    result: { resultType: 'complete', ...result, ...policy, _meta: { ...((result as JsonObject)._meta as object), ...serverMeta } },
    ...(policy ? { cache: policy } : {}),
  });
  const staticResult = (method: CacheableMethod, body: object, authenticated: boolean) =>
    new RawJson(JSON.stringify(completeResult(body, cache(method, authenticated)).result));

  const served: readonly (readonly string[])[] = [SUPPORTED_VERSIONS, SERVED_WITH_LEGACY];
  const servedVersions = (servesLegacy: boolean) => served[Number(servesLegacy)]!;
  const discoverBody = (servesLegacy: boolean) => ({
    supportedVersions: servedVersions(servesLegacy),
    capabilities,
    ...(definition.instructions ? { instructions: definition.instructions } : {}),
  });
  // Indexed by [authenticated][servesLegacy].
  const discover = [false, true].map((authenticated) => [false, true].map((legacy) => staticResult('server/discover', discoverBody(legacy), authenticated)));
  const listHandler = <T>(method: CacheableMethod, key: string, items: readonly T[]): Handler => {
    const page = (authenticated: boolean) => (list: readonly T[], nextCursor: string | undefined) =>
      completeResult({ [key]: list, ...(nextCursor ? { nextCursor } : {}) }, cache(method, authenticated)).result;
    // Every page, serialized once per variant: anonymous, authenticated, legacy.
    const pages = [paginate(method, items, pageSize, page(false)), paginate(method, items, pageSize, page(true))];
    const legacyPages = paginate(method, items, pageSize, (list, next) => legacyShape(page(false)(list, next)));
    return (params, meta, call) => {
      const cursor = params.cursor;
      if (cursor !== undefined && typeof cursor !== 'string') return { error: invalidParams('params.cursor must be a string') };
      const authenticated = call.principal !== undefined;
      const found = (meta.era === 'legacy' ? legacyPages : pages[Number(authenticated)]!).get(cursor);
      return found ? { result: found, cache: cache(method, authenticated) } : { error: invalidParams('unknown cursor', { cursor }) };
    };
  };

  const { callTool, getPrompt, readResource, completeArgument } = createHandlers({
    definition, tools, prompts, resources, templates, completeResult, cache, stateTtl, toolTimeoutMs, maxResultChars,
  });

  /**
   * spec 2026-07-28 basic/patterns/subscriptions: acknowledge first with the honoured subset
   * of the filter, tag every message with the subscription id (the request id). Nothing this
   * Worker serves changes while a client listens, so no notification type is honoured.
   */
  const listen: Handler = (params, _meta, _call, id) => {
    if (!isObject(params.notifications)) return { error: invalidParams('params.notifications must be an object') };
    const tag = { [MetaKey.subscriptionId]: id };
    return {
      listen: {
        acknowledgement: { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: {}, _meta: tag } },
        teardown: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'The server ended the subscription', _meta: tag } },
        closing: { resultType: 'complete', _meta: { ...serverMeta, ...tag } },
      },
    };
  };

  const methods = new Map<string, Handler>([
    ['server/discover', (_params, _meta, call) => {
      const authenticated = call.principal !== undefined;
      return { result: discover[Number(authenticated)]![Number(call.servesLegacy === true)]!, cache: cache('server/discover', authenticated) };
    }],
    ['subscriptions/listen', listen],
  ]);
  if (tools.size > 0) {
    methods.set('tools/list', listHandler('tools/list', 'tools', [...tools.values()].map((t) => t.listed)));
    methods.set('tools/call', callTool);
  }
  if (prompts.size > 0) {
    methods.set('prompts/list', listHandler('prompts/list', 'prompts', [...prompts.values()].map(listedPrompt)));
    methods.set('prompts/get', getPrompt);
  }
  if (capabilities.resources) {
    methods.set('resources/list', listHandler('resources/list', 'resources', [...resources.values()].map(listedResource)));
    methods.set('resources/templates/list', listHandler('resources/templates/list', 'resourceTemplates', templates.map((t) => t.listed)));
    methods.set('resources/read', readResource);
  }
  if (hasCompleters) methods.set('completion/complete', completeArgument);
  // The Tasks extension adds its methods and task status notifications (docs/tasks.md).
  tasks?.install({ methods, complete: completeResult });

  const legacy = legacyMethods(methods, definition, capabilities, completeResult);

  return {
    supportedVersions: SUPPORTED_VERSIONS,
    servedVersions,
    capabilities,
    tool: (name) => tools.get(name),
    scopeHierarchy,
    handle(request, meta, call) {
      const isLegacy = meta.era === 'legacy';
      // spec 2026-07-28 basic/versioning: an unsupported version is refused on every method
      // (initialize negotiates instead: spec 2025-11-25 lifecycle)
      const versions: readonly string[] = isLegacy ? LEGACY_VERSIONS : SUPPORTED_VERSIONS;
      if (!versions.includes(meta.protocolVersion) && !(isLegacy && request.method === 'initialize')) {
        return { error: unsupportedVersion(servedVersions(isLegacy || call.servesLegacy === true), meta.protocolVersion) };
      }
      const handler = (isLegacy ? legacy : methods).get(request.method);
      if (!handler) return { error: methodNotFound(request.method) };
      const reply = handler(request.params ?? {}, meta, call, request.id);
      if (!isLegacy) return reply;
      return reply instanceof Promise ? reply.then(shapeLegacy) : shapeLegacy(reply);
    },
  };
}

/** A legacy client's reply: results in the shape of its revision (spec 2025-11-25). */
const shapeLegacy = (reply: Reply): Reply => (reply.result && !(reply.result instanceof RawJson) ? { result: legacyShape(reply.result) } : reply);

/**
 * The task runtime when at least one tool runs as a task, else undefined: the extension is
 * advertised and served only then. A task tool without a runtime is an author's bug, reported at load.
 */
function taskRuntime(definition: ServerDefinition, tools: ReadonlyMap<string, CompiledTool>): TaskRuntime | undefined {
  const taskTool = [...tools.values()].find((t) => t.definition.task !== undefined);
  if (!taskTool) return undefined;
  if (!definition.tasks) throw new Error(`tool "${taskTool.definition.name}" runs as a task: give the server \`tasks: durableTasks()\` (docs/tasks.md)`);
  return definition.tasks;
}

/** Indexes definitions by their key; a duplicate is an author's bug, reported at module load. */
function byName<T>(items: readonly T[], key: (item: T) => string, kind: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    if (map.has(key(item))) throw new Error(`${kind} "${key(item)}" is defined twice: give each ${kind} its own name, or list it once`);
    map.set(key(item), item);
  }
  return map;
}
