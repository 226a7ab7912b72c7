/**
 * MCP Apps (`io.modelcontextprotocol/ui`, spec extensions/apps): tools with a view a host renders.
 * A server that lists a view (`defineAppView`) in its resources serves the extension; a tool
 * names its view with `ui: { resourceUri }`. docs/apps.md says how a view is written, built and tested.
 */
export { defineAppView, VIEW_CACHE, type AppViewDefinition } from './defineAppView';
export { APPS_EXTENSION, VIEW_MIME_TYPE } from './views';
export type { ViewCsp, ViewMeta, ViewPermissions } from './viewMeta';
