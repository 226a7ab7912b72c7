/**
 * The field MCP Apps adds to a tool (docs/apps.md), by declaration merging: the core's
 * `ToolFields` knows nothing of it, and a Worker without `src/apps/` has none.
 */

/** The extension's identifier (spec extensions/apps, Extension Identifier). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/**
 * A tool's link to a view (spec extensions/apps, Resource Discovery): `resourceUri` names a view
 * the server lists (`defineAppView`); `visibility` says who may call it, `["model", "app"]` when
 * left out. A host keeps an `["app"]` tool from its model: only the view calls it.
 */
export interface ToolUi {
  resourceUri: string;
  visibility?: readonly ('model' | 'app')[];
}

declare module '../mcp/define' {
  interface ToolFields {
    /** The view a host renders this tool's results in (MCP Apps, docs/apps.md); listed as `_meta.ui`. */
    ui?: ToolUi;
  }
}
