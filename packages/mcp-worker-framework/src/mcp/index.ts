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
