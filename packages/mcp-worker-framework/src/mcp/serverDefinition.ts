/**
 * `ServerDefinition`: everything a server is made of, in one object that `createServer` compiles
 * once per isolate. `src/server.ts` is where a fork fills it in. The extensions it is served with
 * are no part of it: they are the Worker's one list (createWorker's `extensions`), which
 * `createServer` receives beside it.
 */
import type {
  AnyTool,
  CacheableMethod,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
} from './define.js';
import type { ScopeHierarchyDefinition } from './scopes.js';
import type { CachePolicy, Implementation } from './types.js';

/**
 * What the Server Card says of the server beyond `info` (spec extensions/server-card, SEP-2127):
 * served at `/mcp/server-card` and listed in `/.well-known/ai-catalog.json` (docs/discovery.md).
 */
export interface ServerCardDefinition {
  /** The server's name in reverse-DNS form, `namespace/name`, e.g. `com.example/weather` (the MCP Registry's name too). */
  name: string;
  /** What the server does, for people choosing one. */
  description: string;
  websiteUrl?: string;
  /** Where its source is, e.g. `{ url: 'https://github.com/you/your-server', source: 'github' }`. */
  repository?: { url: string; source: string; subfolder?: string; id?: string };
  icons?: readonly { src: string; mimeType?: string; sizes?: readonly string[]; theme?: 'light' | 'dark' }[];
}

export interface ServerDefinition {
  /** `serverInfo`: sent in `_meta` of every result. */
  info: Implementation;
  /** The Server Card's own fields; without it, no card and no AI Catalog entry are served. */
  card?: ServerCardDefinition;
  /** Guidance for the model on how to use this server, returned by `server/discover`. */
  instructions?: string;
  tools?: readonly AnyTool[];
  /** Fixed resources; a view of MCP Apps (`defineAppView`, docs/apps.md) is one, and listing one serves the extension. */
  resources?: readonly ResourceDefinition[];
  resourceTemplates?: readonly ResourceTemplateDefinition[];
  prompts?: readonly PromptDefinition[];
  /** Declares the (deprecated) `logging` capability; without it `log()` sends nothing. */
  logging?: boolean;
  /** Items per page of every list result. */
  pageSize?: number;
  /** Caching hints per method; anything not given uses `DEFAULT_CACHE`. */
  cache?: Partial<Record<CacheableMethod, CachePolicy>>;
  /** How long a `requestState` stays valid (multi round-trip requests). */
  requestStateTtlMs?: number;
  /** A tool call still running after this is aborted and reported to the model as a tool error. */
  toolTimeoutMs?: number;
  /** A tool result larger than this (as JSON) is replaced by a tool error. */
  maxResultChars?: number;
  /**
   * OAuth scopes that imply narrower ones, when auth is on: `{ repo: ['repo:read', 'repo:write'] }`
   * lets a token with `repo` call a tool that requires `repo:read` (spec 2026-07-28
   * basic/authorization, Step-Up Authorization Flow). Transitive; handlers see the implied scopes too.
   */
  scopeHierarchy?: ScopeHierarchyDefinition;
}
