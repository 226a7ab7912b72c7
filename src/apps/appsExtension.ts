/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, spec extensions/apps) through the one
 * seam of extensions (`../mcp/extension.ts`). A server serves it when it lists a view: the
 * registry asks for it with the server's resources and tools, and a server without views gets
 * nothing, not even a check per request. Everything here happens at module load: views and the
 * tools that name them are checked, and each such tool is listed with `_meta.ui`.
 */
import type { AnyTool, ResourceDefinition } from '../mcp/define';
import type { Extension } from '../mcp/extension';
import { checkViewUri, VIEW_MIME_TYPE } from './defineAppView';
import { checkViewMeta, type ViewMeta } from './viewMeta';

/** The extension's identifier (spec extensions/apps, Extension Identifier). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

const VISIBILITY = ['model', 'app'];

/** The extension for these definitions, or undefined when no resource is a view and no tool names one. */
export function appsExtension(resources: readonly ResourceDefinition[], tools: readonly AnyTool[]): Extension | undefined {
  const views = resources.filter((r) => r.mimeType === VIEW_MIME_TYPE || r.uri.startsWith('ui://'));
  const linked = tools.filter((t) => t.ui !== undefined);
  if (views.length === 0 && linked.length === 0) return undefined;
  for (const view of views) checkView(view);
  const uris = new Set(views.map((v) => v.uri));
  for (const tool of linked) checkToolUi(tool, uris);
  return {
    id: APPS_EXTENSION,
    // spec extensions/apps, Resource Discovery: `_meta.ui`, never the deprecated flat `ui/resourceUri`.
    toolFields: ({ ui, _meta }) => (ui ? { _meta: { ..._meta, ui: { resourceUri: ui.resourceUri, ...(ui.visibility ? { visibility: [...ui.visibility] } : {}) } } } : undefined),
    install: () => ({}),
  };
}

/** A view made without `defineAppView` is held to the same rules. */
function checkView(view: ResourceDefinition): void {
  const where = `view "${view.uri}"`;
  checkViewUri(view.uri, where);
  if (view.mimeType !== VIEW_MIME_TYPE) throw new Error(`${where}: a ui:// resource must have mimeType "${VIEW_MIME_TYPE}"; make it with defineAppView`);
  const ui = view._meta?.ui;
  if (ui !== undefined) checkViewMeta(ui as ViewMeta, where);
}

function checkToolUi(tool: AnyTool, views: ReadonlySet<string>): void {
  const where = `tool "${tool.name}"`;
  const { resourceUri, visibility } = tool.ui!;
  if (tool._meta && Object.hasOwn(tool._meta, 'ui/resourceUri')) throw new Error(`${where}: _meta["ui/resourceUri"] is deprecated (spec extensions/apps); use ui: { resourceUri }`);
  if (typeof resourceUri !== 'string' || !views.has(resourceUri)) {
    const listed = [...views].join(', ') || 'none';
    throw new Error(`${where}: ui.resourceUri ${JSON.stringify(resourceUri)} names no view of this server (views listed in resources: ${listed})`);
  }
  if (visibility === undefined) return;
  if (!Array.isArray(visibility) || visibility.length === 0 || new Set(visibility).size !== visibility.length || !visibility.every((v) => VISIBILITY.includes(v))) {
    throw new Error(`${where}: ui.visibility must list "model", "app" or both, once each (left out: both)`);
  }
}
