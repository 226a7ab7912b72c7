/**
 * The protocol core: a validated request in, a result or an error out. It knows nothing of
 * HTTP. `createServer` compiles a definition once per isolate (`./compiledDefinition.ts`) and is the
 * table of the methods it serves, each in its own file under `./methods/`; extensions add
 * theirs through one seam (`./extension.ts`).
 */
import { methodNotFound, unsupportedVersion } from './errors';
import type { ToolCalls } from './extension';
import { RawJson } from './json';
import { LEGACY_VERSIONS, legacyMethods, legacyShape, servedVersions } from './legacy';
import { SUPPORTED_VERSIONS } from './meta';
import { callTool } from './methods/callTool';
import { complete } from './methods/complete';
import { discover } from './methods/discover';
import { getPrompt } from './methods/getPrompt';
import { list } from './methods/list';
import { listen } from './methods/listen';
import { readResource } from './methods/readResource';
import { listedPrompt } from './prompts';
import { CompiledDefinition } from './compiledDefinition';
import type { McpRequest, Method, Reply } from './request';
import { listedResource } from './resources';
import type { ScopeHierarchy } from './scopes';
import type { ServerDefinition } from './serverDefinition';
import type { CompiledTool } from './tools';
import type { ServerCapabilities } from './types';

/** A server definition compiled, ready to serve requests. */
export interface CompiledServer {
  /** The versions a modern request may name. */
  readonly supportedVersions: readonly string[];
  /** Every version served, for discover and -32022: the modern ones, then the legacy ones when they are served. */
  servedVersions(servesLegacy: boolean): readonly string[];
  readonly capabilities: ServerCapabilities;
  /** Which broader scopes imply narrower ones (`ServerDefinition.scopeHierarchy`), for the transport's scope checks. */
  readonly scopeHierarchy: ScopeHierarchy;
  /** Everything compiled from the definition (for an extension's own runtime, such as a task's Durable Object). */
  readonly compiled: CompiledDefinition;
  /** Looks a tool up by name (for the transport's checks of `Mcp-Param-*` headers and scopes). */
  tool(name: string): CompiledTool | undefined;
  /** Serves one request whose `_meta` has been validated; a reply the core has at once (discover, a list) comes without a promise. */
  handle(request: McpRequest): Reply | Promise<Reply>;
}

export function createServer(definition: ServerDefinition): CompiledServer {
  const server = new CompiledDefinition(definition);
  const methods = new Map<string, Method>([
    ['server/discover', discover(server)],
    ['subscriptions/listen', listen(server)],
  ]);
  const parts = server.extensions.map((extension) => ({ id: extension.id, ...extension.install(server) }));
  const toolCalls = parts.flatMap((part) => (part.toolCalls ? [part.toolCalls] : [])) as ToolCalls[];
  if (server.tools.size > 0) {
    methods.set(
      'tools/list',
      list(
        server,
        'tools/list',
        'tools',
        [...server.tools.values()].map((t) => ({ rules: t.definition, listed: t.listed })),
      ),
    );
    methods.set('tools/call', callTool(server, toolCalls));
  }
  if (server.prompts.size > 0) {
    methods.set(
      'prompts/list',
      list(
        server,
        'prompts/list',
        'prompts',
        [...server.prompts.values()].map((p) => ({ rules: p, listed: listedPrompt(p) })),
      ),
    );
    methods.set('prompts/get', getPrompt(server));
  }
  if (server.capabilities.resources) {
    methods.set(
      'resources/list',
      list(
        server,
        'resources/list',
        'resources',
        server.listedResources.map((r) => ({ rules: r, listed: listedResource(r) })),
      ),
    );
    methods.set(
      'resources/templates/list',
      list(
        server,
        'resources/templates/list',
        'resourceTemplates',
        server.templates.map((t) => ({ rules: t.definition, listed: t.listed })),
      ),
    );
    methods.set('resources/read', readResource(server));
  }
  if (server.completes) methods.set('completion/complete', complete(server));
  for (const part of parts) {
    for (const [name, method] of Object.entries(part.methods ?? {})) {
      if (methods.has(name)) throw new Error(`extension ${part.id} serves ${name}, which is served already`);
      methods.set(name, finishing(server, method));
    }
    const wraps = part.listen;
    if (wraps) methods.set('subscriptions/listen', wraps(methods.get('subscriptions/listen')!));
  }
  const legacy = legacyMethods(
    methods,
    server,
    parts.flatMap((part) => part.legacyMethods ?? []),
  );

  return {
    supportedVersions: SUPPORTED_VERSIONS,
    servedVersions,
    capabilities: server.capabilities,
    scopeHierarchy: server.scopeHierarchy,
    compiled: server,
    tool: (name) => server.tools.get(name),
    handle(request) {
      const { message, meta } = request;
      const isLegacy = meta.era === 'legacy';
      // spec 2026-07-28 basic/versioning: an unsupported version is refused on every method
      // (initialize negotiates instead: spec 2025-11-25 lifecycle)
      const versions: readonly string[] = isLegacy ? LEGACY_VERSIONS : SUPPORTED_VERSIONS;
      if (!versions.includes(meta.protocolVersion) && !(isLegacy && message.method === 'initialize')) {
        return {
          error: unsupportedVersion(servedVersions(isLegacy || request.servesLegacy === true), meta.protocolVersion),
        };
      }
      const method = (isLegacy ? legacy : methods).get(message.method);
      if (!method) return { error: methodNotFound(message.method) };
      const reply = method(request);
      if (!isLegacy) return reply;
      return reply instanceof Promise ? reply.then(shapeLegacy) : shapeLegacy(reply);
    },
  };
}

/** An extension's method: its results finished like the core's (`resultType`, the caching hints of `cache`, `serverInfo`). */
const finishing =
  (server: CompiledDefinition, method: Method): Method =>
  async (request) => {
    const reply = await method(request);
    return reply.result && !(reply.result instanceof RawJson) ? server.finished(reply.result, reply.cache) : reply;
  };

/** A legacy client's reply: results in the shape of its revision (spec 2025-11-25). */
const shapeLegacy = (reply: Reply): Reply =>
  reply.result && !(reply.result instanceof RawJson) ? { result: legacyShape(reply.result) } : reply;
