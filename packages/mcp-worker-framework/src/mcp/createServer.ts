/**
 * The protocol core: a validated request in, a result or an error out. It knows nothing of
 * HTTP. `createServer` compiles a definition once per isolate (`./compiledDefinition.ts`) and is the
 * table of the methods it serves, each in its own file under `./methods/`; extensions add
 * theirs through one seam (`./extension.ts`).
 */
import { admitter } from './admission.js';
import { McpError } from './errors.js';
import type { Extension, ToolCalls } from './extension.js';
import { RawJson } from './json.js';
import { legacyMethods, servedVersions } from './legacy.js';
import { type RequestMeta, SUPPORTED_VERSIONS } from './meta.js';
import { callTool } from './methods/callTool.js';
import { complete } from './methods/complete.js';
import { discover } from './methods/discover.js';
import { getPrompt } from './methods/getPrompt.js';
import { list } from './methods/list.js';
import { listen } from './methods/listen.js';
import { readResource } from './methods/readResource.js';
import { listedPrompt } from './prompts.js';
import { CompiledDefinition } from './compiledDefinition.js';
import type { Admission, Caller, McpRequest, Method, Reply, Served } from './request.js';
import { listedResource } from './resources.js';
import { serialized } from './resultJson.js';
import type { ScopeHierarchy } from './scopes.js';
import type { ServerDefinition } from './serverDefinition.js';
import type { CompiledTool } from './tools.js';
import type { JSONRPCRequest, ServerCapabilities } from './types.js';

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
  /** Looks a tool up by name (for a runtime that runs a tool it has stored by name, such as a task's Durable Object). */
  tool(name: string): CompiledTool | undefined;
  /**
   * Admits a request whose `_meta` the transport has read (`./admission.ts`): its version, its
   * method, the item it names, visible to `caller` and with its scopes granted; or the refusal.
   * Decided once: `serve` trusts what it admitted.
   */
  admit(
    message: JSONRPCRequest,
    meta: RequestMeta,
    caller: Caller | undefined,
    servesLegacy: boolean,
  ): Admission | McpError;
  /** Serves a request `admit` admitted; a reply the core has at once (discover, a list) comes without a promise. */
  serve(request: McpRequest, admission: Admission): Reply<RawJson> | Promise<Reply<RawJson>>;
  /** `admit`, then `serve`: for a caller with nothing to do between the two (a test, a transport with no checks of its own). */
  handle(request: McpRequest): Reply<RawJson> | Promise<Reply<RawJson>>;
}

/**
 * `extensions`: what the server is served with besides the core (spec 2026-07-28 basic/index,
 * Extensions), advertised in its capabilities: the one list of createWorker's `extensions`.
 */
export function createServer(definition: ServerDefinition, extensions: readonly Extension[] = []): CompiledServer {
  // The definition's own list went (issue 38): a server.ts written before it would otherwise lose its extensions silently.
  if ('extensions' in definition)
    throw new Error(
      'extensions moved from the server definition to createWorker(definition, { extensions }) in src/index.ts',
    );
  const compiled = new CompiledDefinition(definition, extensions);
  const methods = new Map<string, Served>([
    ['server/discover', discover(compiled)],
    ['subscriptions/listen', listen(compiled)],
  ]);
  const parts = compiled.extensions.map((extension) => ({ id: extension.id, ...extension.install(compiled) }));
  const toolCalls = parts.flatMap((part) => (part.toolCalls ? [part.toolCalls] : [])) as ToolCalls[];
  if (compiled.tools.size > 0) {
    methods.set(
      'tools/list',
      list(
        compiled,
        'tools/list',
        'tools',
        [...compiled.tools.values()].map((t) => ({ rules: t.definition, listed: t.listed })),
      ),
    );
    methods.set('tools/call', callTool(compiled, toolCalls));
  }
  if (compiled.prompts.size > 0) {
    methods.set(
      'prompts/list',
      list(
        compiled,
        'prompts/list',
        'prompts',
        [...compiled.prompts.values()].map((p) => ({ rules: p, listed: listedPrompt(p) })),
      ),
    );
    methods.set('prompts/get', getPrompt(compiled));
  }
  if (compiled.capabilities.resources) {
    methods.set(
      'resources/list',
      list(
        compiled,
        'resources/list',
        'resources',
        compiled.listedResources.map((r) => ({ rules: r, listed: listedResource(r) })),
      ),
    );
    methods.set(
      'resources/templates/list',
      list(
        compiled,
        'resources/templates/list',
        'resourceTemplates',
        compiled.templates.map((t) => ({ rules: t.definition, listed: t.listed })),
      ),
    );
    methods.set('resources/read', readResource(compiled));
  }
  if (compiled.completes) methods.set('completion/complete', complete(compiled));
  for (const part of parts) {
    for (const [name, method] of Object.entries(part.methods ?? {})) {
      if (methods.has(name)) throw new Error(`extension ${part.id} serves ${name}, which is served already`);
      methods.set(name, finishing(compiled, method));
    }
    const wraps = part.listen;
    if (wraps) methods.set('subscriptions/listen', wraps(methods.get('subscriptions/listen') as Method));
  }
  const legacy = legacyMethods(
    methods,
    compiled,
    parts.flatMap((part) => part.legacyMethods ?? []),
  );
  const admit = admitter(methods, legacy);
  // Every result leaves serialized for its era (`./resultJson.ts`): the transport splices the text.
  const serve = (request: McpRequest, admission: Admission): Reply<RawJson> | Promise<Reply<RawJson>> => {
    const reply = admission.serve(request, admission.item);
    const legacy = request.meta.era === 'legacy';
    return reply instanceof Promise ? reply.then((done) => serialized(done, legacy)) : serialized(reply, legacy);
  };

  return {
    supportedVersions: SUPPORTED_VERSIONS,
    servedVersions,
    capabilities: compiled.capabilities,
    scopeHierarchy: compiled.scopeHierarchy,
    compiled,
    tool: (name) => compiled.tools.get(name),
    admit,
    serve,
    handle(request) {
      const admission = admit(request.message, request.meta, request.caller, request.servesLegacy === true);
      return admission instanceof McpError ? { error: admission } : serve(request, admission);
    },
  };
}

/** An extension's method: its results finished like the core's (`resultType`, the caching hints of `cache`, `serverInfo`). */
const finishing =
  (compiled: CompiledDefinition, method: Method): Method =>
  async (request) => {
    const reply = await method(request);
    return reply.result && !(reply.result instanceof RawJson) ? compiled.finished(reply.result, reply.cache) : reply;
  };
