/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, spec extensions/apps) through the one
 * seam of extensions (`../mcp/extension.ts`), for a server that lists views (`./views.ts` says
 * when). Everything here happens at module load: the tools that name a view are checked, and each
 * is listed with `_meta.ui`. Nothing runs per request: a view is read like any other resource.
 */
import type { AnyTool, ResourceDefinition } from '../mcp/define';
import type { Extension } from '../mcp/extension';
import { APPS_EXTENSION } from './views';

const VISIBILITY = ['model', 'app'];

export function appsExtension(views: readonly ResourceDefinition[], tools: readonly AnyTool[]): Extension {
  const uris = new Set(views.map((v) => v.uri));
  for (const tool of tools) if (tool.ui !== undefined) checkToolUi(tool, uris);
  return {
    id: APPS_EXTENSION,
    // spec extensions/apps, Resource Discovery: `_meta.ui`, never the deprecated flat `ui/resourceUri`.
    toolFields: ({ ui, _meta }) => (ui ? { _meta: { ..._meta, ui: { resourceUri: ui.resourceUri, ...(ui.visibility ? { visibility: [...ui.visibility] } : {}) } } } : undefined),
    install: () => ({}),
  };
}

function checkToolUi(tool: AnyTool, views: ReadonlySet<string>): void {
  const where = `tool "${tool.name}"`;
  const { resourceUri, visibility } = tool.ui!;
  if (tool._meta && Object.hasOwn(tool._meta, 'ui/resourceUri')) throw new Error(`${where}: _meta["ui/resourceUri"] is deprecated (spec extensions/apps); use ui: { resourceUri }`);
  if (typeof resourceUri !== 'string' || !views.has(resourceUri)) {
    throw new Error(`${where}: ui.resourceUri ${JSON.stringify(resourceUri)} names no view of this server (views listed in resources: ${[...views].join(', ')})`);
  }
  if (visibility === undefined) return;
  if (!Array.isArray(visibility) || visibility.length === 0 || new Set(visibility).size !== visibility.length || !visibility.every((v) => VISIBILITY.includes(v))) {
    throw new Error(`${where}: ui.visibility must list "model", "app" or both, once each (left out: both)`);
  }
}
