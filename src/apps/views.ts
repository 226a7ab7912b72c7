/**
 * What the core knows of views, and no more: a server without views carries only this file. The
 * extension that serves views (`appsExtension.ts`) is reached through `defineAppView`, which
 * hands it over with the first view it makes; so its code is in the Worker only when a view is.
 */
import type { AnyTool, ResourceDefinition } from '../mcp/define';
import type { Extension } from '../mcp/extension';

/** The extension's identifier (spec extensions/apps, Extension Identifier). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of a view (spec extensions/apps, Content Requirements: MUST). */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

type AppsExtension = (views: readonly ResourceDefinition[], tools: readonly AnyTool[]) => Extension;

/** Every resource `defineAppView` made: its URI, document and `_meta.ui` were checked there. */
const madeViews = new WeakSet<object>();
/** The extension that serves views, handed over by `defineAppView`. */
let appsExtension: AppsExtension | undefined;

/** Called by `defineAppView` with each view it makes. */
export function madeView(view: ResourceDefinition, extension: AppsExtension): void {
  madeViews.add(view);
  appsExtension = extension;
}

/**
 * The MCP Apps extension for a server's resources and tools (the registry asks, once, at load),
 * or undefined when none of its resources is a view: then no tool may name one.
 */
export function appsExtensionFor(resources: readonly ResourceDefinition[], tools: readonly AnyTool[]): Extension | undefined {
  const views = resources.filter((r) => r.mimeType === VIEW_MIME_TYPE || r.uri.startsWith('ui://'));
  for (const view of views) {
    if (!madeViews.has(view)) throw new Error(`resource "${view.uri}": a view (ui://, ${VIEW_MIME_TYPE}) is made with defineAppView, which checks it (docs/apps.md)`);
  }
  if (views.length > 0 && appsExtension) return appsExtension(views, tools);
  const linked = tools.find((t) => t.ui !== undefined);
  if (linked) throw new Error(`tool "${linked.name}": ui.resourceUri ${JSON.stringify(linked.ui?.resourceUri)} names no view of this server (views listed in resources: none)`);
  return undefined;
}
