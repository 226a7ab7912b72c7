/**
 * MCP Apps (`io.modelcontextprotocol/ui`, spec extensions/apps): tools with a view a host renders.
 * `apps()` in `extensions` of src/index.ts turns it on; a view (`defineAppView`) is listed in
 * the server's resources, and a tool names its view with `ui: { resourceUri }`. docs/apps.md says how a view is written, built and tested.
 */
export { apps } from './appsExtension.js';
export { defineAppView, VIEW_CACHE, type AppViewDefinition } from './defineAppView.js';
export { APPS_EXTENSION, VIEW_MIME_TYPE } from './views.js';
export type { ViewCsp, ViewMeta, ViewPermissions } from './viewMeta.js';
export type { ToolUi } from './toolFields.js';
