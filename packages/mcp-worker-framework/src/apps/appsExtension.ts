/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, spec extensions/apps) through the one
 * seam of extensions (`../mcp/extension.ts`), turned on in the entry (`extensions: [apps()]` in
 * src/index.ts). Everything here happens at load: each view is checked to be one `defineAppView`
 * made, each tool that names a view is checked against them, and is listed with `_meta.ui`.
 * Nothing runs per request: a view is read like any other resource.
 */
import type { AnyTool, Extension } from '../mcp/internal.js';
import { UI_FIELD } from './toolFields.js';
import { APPS_EXTENSION, isMadeView, VIEW_MIME_TYPE } from './views.js';

const VISIBILITY = ['model', 'app'];

/** MCP Apps, for `extensions` in src/index.ts: the server's tools may name a view of its resources (docs/apps.md). */
export function apps(): Extension {
  return {
    id: APPS_EXTENSION,
    toolField: UI_FIELD,
    // spec extensions/apps, Resource Discovery: `_meta.ui`, never the deprecated flat `ui/resourceUri`.
    toolFields: ({ ui, _meta }) =>
      ui
        ? {
            _meta: {
              ..._meta,
              ui: { resourceUri: ui.resourceUri, ...(ui.visibility ? { visibility: [...ui.visibility] } : {}) },
            },
          }
        : undefined,
    // spec extensions/apps: the capability tells a host to render views; with no tool that has one, there is none to render.
    advertisedWith: (tools) => [...tools.values()].some(({ definition }) => definition.ui !== undefined),
    install({ resources, tools }) {
      const views = [...resources.values()].filter((r) => r.mimeType === VIEW_MIME_TYPE || r.uri.startsWith('ui://'));
      const unchecked = views.find((view) => !isMadeView(view));
      if (unchecked)
        throw new Error(
          `resource "${unchecked.uri}": a view (ui://, ${VIEW_MIME_TYPE}) is made with defineAppView, which checks it (docs/apps.md)`,
        );
      const uris = new Set(views.map((v) => v.uri));
      for (const { definition } of tools.values()) if (definition.ui !== undefined) checkToolUi(definition, uris);
      return {};
    },
  };
}

function checkToolUi(tool: AnyTool, views: ReadonlySet<string>): void {
  const where = `tool "${tool.name}"`;
  const { resourceUri, visibility } = tool.ui!;
  if (tool._meta && Object.hasOwn(tool._meta, 'ui/resourceUri'))
    throw new Error(`${where}: _meta["ui/resourceUri"] is deprecated (spec extensions/apps); use ui: { resourceUri }`);
  if (typeof resourceUri !== 'string' || !views.has(resourceUri)) {
    throw new Error(
      `${where}: ui.resourceUri ${JSON.stringify(resourceUri)} names no view of this server (views listed in resources: ${[...views].join(', ') || 'none'})`,
    );
  }
  if (visibility === undefined) return;
  if (
    !Array.isArray(visibility) ||
    visibility.length === 0 ||
    new Set(visibility).size !== visibility.length ||
    !visibility.every((v) => VISIBILITY.includes(v))
  ) {
    throw new Error(`${where}: ui.visibility must list "model", "app" or both, once each (left out: both)`);
  }
}
