/**
 * What MCP Apps knows of views, and no more: a server without views carries only this file.
 * `defineAppView` records each view it makes, so that the extension (`apps()`,
 * `./appsExtension.ts`) can tell a view it checked from a `ui://` resource written by hand.
 */
import type { ResourceDefinition } from '../mcp/internal.js';

import { APPS_EXTENSION } from './toolFields.js';

export { APPS_EXTENSION };

/** The MIME type of a view (spec extensions/apps, Content Requirements: MUST). */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** Every resource `defineAppView` made: its URI, document and `_meta.ui` were checked there. It decides nothing a server serves. */
const madeViews = new WeakSet<object>();

/** Called by `defineAppView` with each view it makes. */
export const madeView = (view: ResourceDefinition): void => void madeViews.add(view);

/** True when `defineAppView` made it. */
export const isMadeView = (view: ResourceDefinition): boolean => madeViews.has(view);
