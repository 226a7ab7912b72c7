/**
 * A server definition compiled once per isolate into what every method reads: the tools,
 * prompts, resources and templates by name, the capabilities to advertise, the settings with
 * their defaults, and how a finished result is wrapped. Author mistakes (a name listed twice, a
 * schema the server cannot serve) fail here, at module load, where the author sees them.
 */
import type { AnyTool, CacheableMethod, PromptDefinition, ResourceDefinition } from './define.js';
import {
  DEFAULT_CACHE,
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_REQUEST_STATE_TTL_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
} from './defaults.js';
import type { Extension, ServerAtLoad } from './extension.js';
import { MetaKey } from './meta.js';
import type { ResultReply } from './request.js';
import { compileTemplate, type CompiledTemplate } from './resources.js';
import { compileScopeHierarchy, type ScopeHierarchy } from './scopes.js';
import type { ServerCardDefinition, ServerDefinition } from './serverDefinition.js';
import { compileTool, type CompiledTool } from './tools.js';
import type { CachePolicy, Implementation, JsonObject, ServerCapabilities } from './types.js';

export class CompiledDefinition implements ServerAtLoad {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly card: ServerCardDefinition | undefined;
  /** The (deprecated) `logging` capability: without it, a handler's `log()` sends nothing. */
  readonly logging: boolean;
  readonly tools: ReadonlyMap<string, CompiledTool>;
  readonly prompts: ReadonlyMap<string, PromptDefinition>;
  /** Every fixed resource by URI: the definition's and those extensions add. */
  readonly resources: ReadonlyMap<string, ResourceDefinition>;
  /** The fixed resources `resources/list` shows (an extension's unlisted ones are only read). */
  readonly listedResources: readonly ResourceDefinition[];
  readonly templates: readonly CompiledTemplate[];
  /** True when a prompt argument or a template variable can be completed (`completion/complete`). */
  readonly completes: boolean;
  readonly extensions: readonly Extension[];
  /** What is served, as `initialize` advertises it; `server/discover` adds the extensions' `protocol` (`methods/discover.ts`). */
  readonly capabilities: ServerCapabilities;
  readonly pageSize: number;
  readonly requestStateTtlMs: number;
  readonly toolTimeoutMs: number;
  readonly maxResultChars: number;
  readonly scopeHierarchy: ScopeHierarchy;
  /** `serverInfo`, in the `_meta` of every result. */
  readonly serverMeta: JsonObject;
  private readonly policies: Readonly<
    Record<'anonymous' | 'authenticated', Readonly<Record<CacheableMethod, CachePolicy>>>
  >;

  constructor(definition: ServerDefinition, extensions: readonly Extension[]) {
    this.info = definition.info;
    this.instructions = definition.instructions;
    this.card = definition.card && checkedCard(definition.card);
    this.logging = definition.logging === true;
    this.extensions = extensions;
    byName(this.extensions, (e) => e.id, 'extension');
    const fieldsOf = (tool: AnyTool) => this.extensions.flatMap((extension) => extension.toolFields?.(tool) ?? []);
    this.tools = byName(
      (definition.tools ?? []).map((tool) => compileTool(tool, fieldsOf(tool))),
      (t) => t.definition.name,
      'tool',
    );
    this.prompts = byName(definition.prompts ?? [], (p) => p.name, 'prompt');
    this.listedResources = [...(definition.resources ?? []), ...this.extensions.flatMap((e) => e.resources ?? [])];
    this.resources = byName(
      [...this.listedResources, ...this.extensions.flatMap((e) => e.unlistedResources ?? [])],
      (r) => r.uri,
      'resource',
    );
    this.templates = (definition.resourceTemplates ?? []).map(compileTemplate);
    this.completes =
      this.templates.some((t) => t.definition.complete) ||
      [...this.prompts.values()].some((p) => p.arguments?.some((a) => a.complete));
    this.pageSize = definition.pageSize ?? DEFAULT_PAGE_SIZE;
    this.requestStateTtlMs = definition.requestStateTtlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    this.toolTimeoutMs = definition.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.maxResultChars = definition.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    this.scopeHierarchy = compileScopeHierarchy(definition.scopeHierarchy);
    this.serverMeta = { [MetaKey.serverInfo]: definition.info };
    // Principal-scoped caching: a result computed for an authenticated caller is private unless
    // the definition says explicitly that it is public (spec server/utilities/caching).
    const chosen = (scope?: 'private') =>
      Object.fromEntries(
        Object.entries(DEFAULT_CACHE).map(([method, policy]) => [
          method,
          definition.cache?.[method as CacheableMethod] ?? (scope ? { ...policy, cacheScope: scope } : policy),
        ]),
      ) as Record<CacheableMethod, CachePolicy>;
    this.policies = { anonymous: chosen(), authenticated: chosen('private') };
    this.capabilities = this.advertised();
  }

  /** The caching hints of a result of `method`, for an anonymous or an authenticated caller. */
  cache(method: CacheableMethod, authenticated = false): CachePolicy {
    return this.policies[authenticated ? 'authenticated' : 'anonymous'][method];
  }

  /**
   * A finished result (`resultType: "complete"`, spec 2026-07-28 basic/index): the caching hints
   * of a cacheable one, and `serverInfo` in its `_meta` beside whatever `_meta` it has.
   */
  finished(result: object, policy?: CachePolicy): ResultReply {
    const body = {
      resultType: 'complete',
      ...result,
      ...policy,
      _meta: { ...((result as JsonObject)._meta as object), ...this.serverMeta },
    };
    return policy ? { result: body, cache: policy } : { result: body };
  }

  /**
   * Only what is really served is advertised (spec 2026-07-28 server/discover). No listChanged or
   * subscribe of its own: nothing tells a listener of a change unless notifications are on
   * (src/notifications, whose `protocol` adds them).
   */
  private advertised(): ServerCapabilities {
    const capabilities: ServerCapabilities = {};
    if (this.tools.size > 0) capabilities.tools = {};
    if (this.prompts.size > 0) capabilities.prompts = {};
    if (this.resources.size > 0 || this.templates.length > 0) capabilities.resources = {};
    if (this.completes) capabilities.completions = {};
    if (this.logging) capabilities.logging = {};
    for (const e of this.extensions)
      if (!e.protocol && (e.advertisedWith?.(this.tools) ?? true))
        (capabilities.extensions ??= {})[e.id] = e.settings ?? {};
    return capabilities;
  }
}

/** spec extensions/server-card schema.json: `name` is `namespace/name` (reverse DNS); checked at load, where the author sees it. */
function checkedCard(card: ServerCardDefinition): ServerCardDefinition {
  if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(card.name)) {
    throw new Error(
      `card.name "${card.name}" must be a reverse-DNS namespace and a name, e.g. "com.example/weather" (docs/discovery.md)`,
    );
  }
  if (typeof card.description !== 'string' || card.description === '')
    throw new Error('card.description must say what the server does');
  return card;
}

/** Indexes definitions by their key; a duplicate is an author's bug, reported at module load. */
function byName<T>(items: readonly T[], key: (item: T) => string, kind: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    if (map.has(key(item)))
      throw new Error(`${kind} "${key(item)}" is defined twice: give each ${kind} its own name, or list it once`);
    map.set(key(item), item);
  }
  return map;
}
