/**
 * The public API a server author uses: tools, resources and prompts are plain data plus a
 * handler, listed in one `ServerDefinition` (`./serverDefinition.ts`). `src/server.ts` is where a
 * fork fills these in.
 */
import type { InputRequired } from './input.js';
import type { ClientFeature, RequestMeta } from './meta.js';
import type { Caller } from './caller.js';
import type { PromptArguments, TemplateVariableName, TemplateVariables } from './argumentTypes.js';
import type {
  ArgumentsOf,
  InputSchema,
  NoTypeArgument,
  OutputSchema,
  ResultOf,
  TypeNamesChecked,
} from './toolSchema.js';
import type {
  Annotations,
  BlobResourceContents,
  CachePolicy,
  CallToolResult,
  ContentBlock,
  Implementation,
  JsonObject,
  JsonValue,
  LoggingLevel,
  TextResourceContents,
  Tool,
} from './types.js';
import type { WorkerEnv } from './env.js';

/** What a handler may use besides its arguments. Nothing here outlives the request. */
export interface HandlerContext {
  /** Aborts when the client closes the response stream (spec 2026-07-28 streamable-http, Cancellation). */
  signal: AbortSignal;
  /** The Worker's bindings, vars and secrets. */
  env: WorkerEnv;
  // An extension adds its own fields here, by declaration merging: tasks' `task` (src/tasks/toolFields.ts).
  /** What the client declared on this request. */
  client: { protocolVersion: string; capabilities: RequestMeta['clientCapabilities']; info?: Implementation };
  /**
   * True when the client declared this capability on this request: `elicitation` (any mode),
   * `elicitation.form`, `elicitation.url`, `sampling`, `sampling.tools`, `sampling.context`, `roots`,
   * and an extension by its identifier: `extensions.io.modelcontextprotocol/ui` (a host that renders views).
   * Ask for a form only when `can('elicitation.form')` (spec 2026-07-28 client/elicitation).
   */
  can(capability: ClientFeature): boolean;
  /** Reports progress; sent only when the request carried a progressToken, and only while it increases. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log message on this request's stream, only at or above the level the request asked for. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** On a retry (spec 2026-07-28 basic/patterns/mrtr), the client's answers, keyed like the input requests. */
  inputResponses: Readonly<Record<string, JsonObject>>;
  /** On a retry, what the previous round passed to `inputRequired(…, state)`, verified and unsealed. */
  state: JsonValue | undefined;
  /** Who is calling (subject, scopes, claims, and in sign-in mode props), when auth is on; absent when it is off. */
  readonly caller?: Caller;
  /** `fetch` that carries the request's W3C trace context (traceparent, tracestate) upstream. */
  fetch: typeof fetch;
}

/**
 * Who sees and may use a tool, prompt, resource or template (docs/server-api.md, "Lists that fit
 * the caller"). Lists leave out what the caller cannot use; an item that sets neither costs nothing.
 */
export interface CallerRules {
  /**
   * OAuth scopes the caller's token must grant (implied ones count): listed only for callers that
   * have them (never for an anonymous one), and, when auth is on, a call without them gets 403
   * insufficient_scope naming them.
   */
  requiredScopes?: readonly string[];
  /**
   * Whether this caller (undefined: anonymous) sees and may use it, e.g. an allowlist of logins
   * read from `caller.claims`. False leaves it out of lists and answers a call as if it did not
   * exist. A rule that throws hides the item.
   */
  visibleTo?(caller: Caller | undefined): boolean;
}

/** A tool's fields besides its schemas and handler: its spec `Tool` description and how it is served. */
export interface ToolFields extends Omit<Tool, 'inputSchema' | 'outputSchema'>, CallerRules {
  /** Client capabilities (or sub-features such as `elicitation.url`) the tool cannot run without; a request lacking one gets -32021. */
  requiresClientCapabilities?: readonly ClientFeature[];
  /** This tool's time limit, when it differs from the server's `toolTimeoutMs`. */
  timeoutMs?: number;
  // An extension adds its own fields here, by declaration merging (`declare module '../mcp/define.js'`):
  // tasks' `task` and `immediateMs` (src/tasks/toolFields.ts), MCP Apps' `ui` (src/apps/toolFields.ts).
}

/**
 * A tool: its spec `Tool` description plus the handler that runs it. The handler's `args` are
 * typed by `inputSchema` and its `structuredContent` by `outputSchema` (`./toolSchema.ts`), a
 * JSON Schema literal or a Standard Schema (zod, valibot, ArkType).
 */
export interface ToolDefinition<In extends InputSchema = InputSchema, Out extends OutputSchema | undefined = undefined>
  extends ToolFields {
  inputSchema: In;
  outputSchema?: Out;
  // NoInfer: the schemas alone decide the types; a handler written apart (its own return type) is checked, not a source.
  handler(args: ArgumentsOf<NoInfer<In>>, context: HandlerContext): Awaitable<ResultOf<NoInfer<Out>> | InputRequired>;
}

/** A tool whatever its schemas (handlers are checked where they are defined). */
export interface AnyTool extends ToolFields {
  inputSchema: InputSchema;
  outputSchema?: OutputSchema | undefined;
  handler(args: never, context: HandlerContext): Awaitable<CallToolResult | InputRequired>;
}

type Awaitable<T> = T | Promise<T>;

/** What a resource read returns (the server adds `resultType`, caching hints and `_meta`). */
interface ResourceContents {
  contents: (TextResourceContents | BlobResourceContents)[];
}

interface ResourceDescription extends CallerRules {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  _meta?: JsonObject;
  /** Caching hints for reads of this resource; defaults to the server's `resources/read` policy. */
  cache?: CachePolicy;
}

/** A resource with a fixed URI, listed by `resources/list`. */
export interface ResourceDefinition extends ResourceDescription {
  uri: string;
  read(context: HandlerContext): Awaitable<ResourceContents | InputRequired>;
}

/**
 * A family of resources (RFC 6570 `{var}` / `{+var}` template), listed by
 * `resources/templates/list`. `read`'s variables are typed from `uriTemplate`, and `complete`
 * names only them. A URI is matched in one pass (./resources.ts): two expressions with no
 * literal between them are refused at load.
 */
export interface ResourceTemplateDefinition<Template extends string = string> extends ResourceDescription {
  uriTemplate: Template;
  read(
    uri: string,
    variables: TemplateVariables<NoInfer<Template>>,
    context: HandlerContext,
  ): Awaitable<ResourceContents | InputRequired | undefined>;
  /** Suggestions for each template variable, for `completion/complete`. */
  complete?: { [Name in TemplateVariableName<NoInfer<Template>>]?: Completer };
}

/** Suggests values for an argument from what has been typed so far (and the other arguments). */
export type Completer = (value: string, context: Record<string, string>) => Awaitable<string[]>;

interface PromptArgumentDefinition {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  complete?: Completer;
}

interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** A prompt; `get`'s arguments are typed from `arguments` (a required one is a string, the others may be missing). */
export interface PromptDefinition<
  Args extends readonly PromptArgumentDefinition[] = readonly PromptArgumentDefinition[],
> extends CallerRules {
  name: string;
  title?: string;
  description?: string;
  // A mapped type, not `Args` itself: an argument with a `complete` function still gives its name to `Args`.
  arguments?: { readonly [I in keyof Args]: Args[I] };
  get(
    args: PromptArguments<NoInfer<Args>>,
    context: HandlerContext,
  ): Awaitable<{ description?: string; messages: PromptMessage[] } | InputRequired>;
}

/**
 * Defines a tool: `args` and `structuredContent` are typed from its schemas, so no type argument is
 * written (`const`: the schema literal keeps its literal types, no `as const` needed). A type
 * argument from before (`defineTool<{ name: string }>`) fails to compile with a message saying so:
 * it is checked against the first type parameter, which is there only to say it.
 */
export const defineTool = <
  _ extends NoTypeArgument = NoTypeArgument,
  const In extends InputSchema = InputSchema,
  const Out extends OutputSchema | undefined = undefined,
>(
  // TypeNamesChecked: a schema whose `type` names no JSON type fails to compile here, naming it.
  tool: ToolDefinition<In, Out> & TypeNamesChecked<In, Out>,
  // NoInfer: a list the tool is put in (`tools: [defineTool(…)]`) must not decide its types either.
): ToolDefinition<NoInfer<In>, NoInfer<Out>> => tool;
/** A fixed resource, as written (its type checked). */
export const defineResource = (resource: ResourceDefinition) => resource;
/** `const`: the template and the arguments keep their literal types, which type `read` and `get`. */
export const defineResourceTemplate = <const Template extends string>(
  template: ResourceTemplateDefinition<Template>,
): ResourceTemplateDefinition<NoInfer<Template>> => template;
export const definePrompt = <const Args extends readonly PromptArgumentDefinition[] = []>(
  prompt: PromptDefinition<Args>,
): PromptDefinition<NoInfer<Args>> => prompt;

/**
 * Thrown by a handler for an expected failure the model can act on (bad upstream answer,
 * value out of range): it becomes a result with `isError: true` and this message
 * (spec 2026-07-28 server/tools, Error Handling: tool execution errors). Arguments that break
 * the input schema are answered the same way.
 */
export class ToolError extends Error {}

/** Shorthand for a result with one text block. */
export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Methods whose results carry caching hints (spec 2026-07-28 server/utilities/caching). */
export type CacheableMethod =
  | 'server/discover'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';
