/**
 * Protocol types, written once with the spec's names (spec 2026-07-28 schema.json).
 * Only what this server reads or writes is declared; everything arriving from the
 * network is `unknown` until a guard in jsonrpc.ts or meta.ts has looked at it.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };

/**
 * A JSON-RPC id: a string or an integer (spec 2026-07-28 basic/index, Requests). An integer
 * beyond 2^53 is kept as its source text (`ExactInteger`) so the response echoes it unchanged.
 */
export type RequestId = string | number | ExactInteger;

/** What `JSON.rawJSON` returns: serialized by `JSON.stringify` as exactly `rawJSON`. */
export interface ExactInteger {
  readonly rawJSON: string;
}

export interface JSONRPCRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JSONRPCNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification;

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

/** Client capabilities relevant to one request (`io.modelcontextprotocol/clientCapabilities`). */
export type ClientCapabilities = { [capability: string]: unknown };

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { listChanged?: boolean; subscribe?: boolean };
  prompts?: { listChanged?: boolean };
  completions?: object;
  logging?: object;
  extensions?: { [id: string]: object };
  /** MCP Events (spec extensions/events, Capability Declaration): a top-level object, set by the events extension. */
  events?: { listChanged?: boolean };
}

type CacheScope = 'public' | 'private';

/** Caching hints carried by cacheable results (spec 2026-07-28 server/utilities/caching). */
export interface CachePolicy {
  ttlMs: number;
  cacheScope: CacheScope;
}

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
}
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: JsonObject;
}
interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A JSON Schema object (2020-12 unless it names another `$schema`). */
export type JSONSchema = { [keyword: string]: unknown };

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
  annotations?: ToolAnnotations;
  icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }[];
  _meta?: JsonObject;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}
