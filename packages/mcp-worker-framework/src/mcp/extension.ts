/**
 * Extensions (spec 2026-07-28 basic/index, Extensions): an extension is a value a server
 * definition lists (`extensions: [durableTasks()]`), and this interface is the one seam through
 * which it plugs into the core. At load the core asks each for what it adds (methods, the tool
 * calls it takes over, fields of listed tools, a hook on `subscriptions/listen`), advertises it in
 * `capabilities.extensions` (discover, and the legacy `initialize`), and refuses at load a method
 * two of them, or one and the core, both claim. Nothing else of the core is lent to them. A
 * feature of the protocol itself served the same way (notifications, src/notifications) says so
 * with `protocol`, and is advertised as the capabilities it makes true instead.
 */
import type { AnyTool, CacheableMethod, CallerRules, ResourceDefinition } from './define.js';
import type { McpError } from './errors.js';
import type { InputRequired } from './input.js';
import type { McpRequest, Method, ResultReply } from './request.js';
import type { ScopeHierarchy } from './scopes.js';
import type { CompiledTemplate } from './resources.js';
import type { CompiledTool } from './tools.js';
import type {
  CachePolicy,
  CallToolResult,
  Implementation,
  JsonObject,
  JsonValue,
  ServerCapabilities,
} from './types.js';

export interface Extension {
  /** Its identifier, e.g. `io.modelcontextprotocol/tasks`. */
  readonly id: string;
  /** The field of a tool it serves (tasks: `task`, MCP Apps: `ui`), declared in its own `toolFields.ts`. */
  readonly toolField?: ToolField;
  /** The settings advertised with it (default `{}`). */
  readonly settings?: JsonObject;
  /** Fields a listed tool gains (e.g. `_meta` an extension defines), worked out once at load. */
  toolFields?(tool: AnyTool): object | undefined;
  /**
   * Fixed resources it serves (e.g. each skill's `SKILL.md`), listed and read exactly like the
   * definition's own: their `requiredScopes` and `visibleTo` apply, and they make the server
   * declare `resources`. `unlistedResources` are read the same way but left out of
   * `resources/list` (a skill's supporting files).
   */
  readonly resources?: readonly ResourceDefinition[];
  readonly unlistedResources?: readonly ResourceDefinition[];
  /**
   * Set by a feature of the protocol itself (notifications: `listChanged`, `resources.subscribe`,
   * src/notifications): the capabilities it makes true, merged into those the server has (a kind
   * of item it does not serve stays absent), in place of an entry in `capabilities.extensions`.
   * The kind named as the extension's `id` is its own, advertised as given (events: `events`).
   * Modern clients only: those of the `initialize` era have no `subscriptions/listen`.
   */
  readonly protocol?: ServerCapabilities;
  /**
   * Whether a server with these tools advertises it; left out, every server that lists it does.
   * MCP Apps: only one with a tool that has a view, so a server whose views are gone does not
   * tell hosts to look for any.
   */
  advertisedWith?(tools: ReadonlyMap<string, CompiledTool>): boolean;
  /** What it lists in a section of its own on the page for people at `/` (Skills: each skill). */
  readonly page?: PageSection;
  /** Called once, when the server is compiled: what the extension serves. */
  install(compiled: ServerAtLoad): ExtensionParts;
}

/**
 * A field an extension adds to a tool (on `ToolFields`, by declaration merging), and what a tool
 * that sets it cannot do without the extension: createWorker refuses at load such a tool on a
 * Worker that lists no extension serving the field, with this message, which names the line to add.
 */
export interface ToolField {
  /** The field's name on a tool definition, e.g. `task`. */
  readonly name: string;
  /** Why `tool` cannot be served as written without the extension, and how to turn it on; undefined when it can. */
  missing(tool: AnyTool): string | undefined;
}

/**
 * An extension's section of the page at `/`: a heading, what its items are for, and the items,
 * each shown by its name and description with the scopes it needs; one whose `visibleTo` hides it
 * from an anonymous visitor is left out, as the page's own lists leave theirs out.
 */
interface PageSection {
  readonly title: string;
  readonly about?: string;
  readonly items: readonly (CallerRules & { readonly name: string; readonly description?: string })[];
}

/** What an extension may read of the server it is installed in (the compiled definition is one). */
export interface ServerAtLoad {
  readonly info: Implementation;
  readonly tools: ReadonlyMap<string, CompiledTool>;
  /** Its resources by URI (MCP Apps: the views its tools name). */
  readonly resources: ReadonlyMap<string, ResourceDefinition>;
  /** Its resource templates, in the order `resources/read` tries them. */
  readonly templates: readonly CompiledTemplate[];
  /** What it serves, by kind of item, as `initialize` advertises it (discover adds the extensions' `protocol`). */
  readonly capabilities: ServerCapabilities;
  /** `serverInfo`, for the `_meta` of what the extension sends outside a result (a stream's messages). */
  readonly serverMeta: JsonObject;
  /** Items per page of every list, so an extension's lists page like the core's (`methods/list.ts`). */
  readonly pageSize: number;
  /** Which broader scopes imply narrower ones, for refusing a caller as the core does (`visibility.ts`). */
  readonly scopeHierarchy: ScopeHierarchy;
  /** The caching hints of a result of `method`, for an anonymous or an authenticated caller. */
  cache(method: CacheableMethod, authenticated?: boolean): CachePolicy;
  /** A result finished as the core finishes its own (`resultType`, caching hints, `serverInfo`). */
  finished(result: object, policy?: CachePolicy): ResultReply;
}

interface ExtensionParts {
  /** Methods it serves, by name; each answer gets `resultType`, the caching hints of its reply's `cache` and `serverInfo` like any other. */
  methods?: Readonly<Record<string, Method>>;
  /** Those of its methods that clients of the `initialize` era may call too, answered in their shape (no `resultType`, no caching hints). */
  legacyMethods?: readonly string[];
  /** Wraps `subscriptions/listen`, e.g. to forward task status into the stream; a wrapper adds to the acknowledgement and to `attach`, never replaces them. */
  listen?(listen: Method): Method;
  /** Takes over the calls of the tools it says so for (tasks: a tool with `task` set). */
  toolCalls?: ToolCalls;
}

/** What a retry brought: the answers to the previous round and its unsealed state (spec basic/patterns/mrtr). */
export interface RoundInput {
  responses: Readonly<Record<string, JsonObject>>;
  state: JsonValue | undefined;
}

/** A `tools/call` answered with something else than a tool result (tasks: a `CreateTaskResult`). */
export class OtherResult {
  constructor(readonly result: JsonObject) {}
}

export interface ToolCalls {
  /** For `tool` on this request: true to take the call, false to leave it to the core, or the error refusing it. */
  claims(tool: CompiledTool, request: McpRequest): boolean | McpError;
  /** Serves a claimed call, after its arguments are checked; it may still answer at once, or ask for input first. */
  call(
    tool: CompiledTool,
    args: JsonObject,
    input: RoundInput,
    request: McpRequest,
  ): Promise<CallToolResult | InputRequired | OtherResult | McpError>;
}

/** True when this request declared extension `id` in its client capabilities; unknown or malformed entries never count. */
export function declaresExtension(request: { meta: McpRequest['meta'] }, id: string): boolean {
  const extensions = request.meta.clientCapabilities.extensions;
  if (
    typeof extensions !== 'object' ||
    extensions === null ||
    Array.isArray(extensions) ||
    !Object.hasOwn(extensions, id)
  )
    return false;
  const entry = (extensions as JsonObject)[id];
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry);
}
