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
} from './define';
export type { ServerDefinition } from './serverDefinition';
export type { Caller, CallerKind } from './caller';
export { inputRequired, elicit, elicitUrl, sample, listRoots, accepted, sampledText, type InputRequest } from './input';
export { createServer, type CompiledServer } from './createServer';
export { runTool, charactersOver, type ToolRun, type ToolOutcome } from './invokeTool';
export type { CallToolResult, ContentBlock } from './types';
export type { FromSchema } from './fromSchema';
export type { StructuredResult, StandardJsonSchema } from './toolSchema';
export type { ClientFeature } from './meta';
/**
 * A schema checked as a tool's is, for the package's extensions (MCP Events' event types). From
 * here, after `createServer`, not from ./internal.ts: a bundle that uses none of them keeps its
 * modules in the order it had (./internal.ts is reached first, and gzip is sensitive to the order).
 */
export { compileSchema } from './compileSchema';
export { jsonSchemaOf, standardOf, validateStandard } from './tools';
