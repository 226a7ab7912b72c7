/**
 * The field MCP Apps adds to a tool (docs/apps.md), by declaration merging: the core's
 * `ToolFields` knows nothing of it, and a Worker without `src/apps/` has none.
 */
import type { ToolField } from '../mcp/internal.js';

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

/** `ui`, as createWorker asks of it: a tool with a view needs MCP Apps to serve it. */
export const UI_FIELD: ToolField = {
  name: 'ui',
  missing: (tool) =>
    tool.ui !== undefined
      ? 'has a view (ui), which MCP Apps serves: turn it on: `extensions: [apps()]` in src/index.ts (docs/apps.md)'
      : undefined,
};

declare module '../mcp/define.js' {
  interface ToolFields {
    /** The view a host renders this tool's results in (MCP Apps, docs/apps.md); listed as `_meta.ui`. */
    ui?: ToolUi;
  }
}
