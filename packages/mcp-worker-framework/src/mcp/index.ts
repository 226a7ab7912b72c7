/**
 * The template's public API: everything a server author imports. The rest of `src/mcp/`
 * is the protocol core behind it.
 */
export {
  defineTool,
  defineResource,
  defineResourceTemplate,
  definePrompt,
  text,
  ToolError,
  type HandlerContext,
  type ToolDefinition,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type PromptDefinition,
} from './define.js';
export type { ServerDefinition } from './serverDefinition.js';
export type { Caller, CallerKind } from './caller.js';
export {
  inputRequired,
  elicit,
  elicitUrl,
  sample,
  listRoots,
  accepted,
  sampledText,
  type InputRequest,
} from './input.js';
export { createServer, type CompiledServer } from './createServer.js';
export { runTool, charactersOver, type ToolRun, type ToolOutcome } from './invokeTool.js';
export type { CallToolResult, ContentBlock } from './types.js';
export type { FromSchema } from './fromSchema.js';
export type { StructuredResult, StandardJsonSchema } from './toolSchema.js';
export type { ClientFeature } from './meta.js';
/**
 * A schema checked as a tool's is, for the package's extensions (MCP Events' event types). From
 * here, after `createServer`, not from ./internal.ts: a bundle that uses none of them keeps its
 * modules in the order it had (./internal.ts is reached first, and gzip is sensitive to the order).
 */
export { compileSchema } from './compileSchema.js';
export { jsonSchemaOf, standardOf, validateStandard } from './tools.js';
