/**
 * `defineAppView`: a view of MCP Apps (spec extensions/apps): a `ui://` resource holding one HTML
 * document, which a host renders in a sandboxed iframe next to the conversation when a tool that
 * names it (`ui: { resourceUri }`) is called. The view is static per deployment, so it is read
 * with long public caching hints; the data reaches it through ordinary tool calls. docs/apps.md.
 */
import type { CachePolicy, ResourceDefinition } from '../mcp/internal.js';
import { checkDocument } from './checkDocument.js';
import { readPage } from './readPage.js';
import { checkViewMeta, type ViewMeta } from './viewMeta.js';
import { madeView, VIEW_MIME_TYPE } from './views.js';

/** A view is the same for everyone until the next deployment: a day, public (even under auth: it holds no secrets). */
export const VIEW_CACHE: CachePolicy = { ttlMs: 86_400_000, cacheScope: 'public' };

export interface AppViewDefinition extends ViewMeta {
  /** `ui://…`, e.g. `ui://world-clock/view`: what tools name in `ui.resourceUri`. */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /**
   * The page `views/<page>/index.html`, built into one self-contained HTML file by
   * `scripts/build-views.mjs` (run by wrangler before every dev, test and deploy) and read from
   * the Worker's static assets, outside its script.
   */
  page?: string;
  /** Or the document itself, kept in the Worker's script: for a view of a few kilobytes. */
  html?: string;
  /** Caching hints of a read (default `VIEW_CACHE`). */
  cache?: CachePolicy;
}

const PAGE = /^[a-z0-9][a-z0-9-]*$/;

export function defineAppView(view: AppViewDefinition): ResourceDefinition {
  const { uri, name, title, description, page, html, cache = VIEW_CACHE, ...meta } = view;
  const where = `view "${uri}"`;
  checkViewUri(uri, where);
  const ui = checkViewMeta(meta, where);
  if ((page === undefined) === (html === undefined))
    throw new Error(`${where}: give either page (a folder of views/) or html (the document itself)`);
  if (page !== undefined && !PAGE.test(page))
    throw new Error(`${where}: page "${page}" must name a folder of views/ in lower case, e.g. "world-clock"`);
  if (html !== undefined) checkDocument(html, where);
  const _meta = Object.keys(ui).length > 0 ? { ui: { ...ui } } : undefined;
  const contents = (text: string) => ({
    contents: [{ uri, mimeType: VIEW_MIME_TYPE, text, ...(_meta ? { _meta } : {}) }],
  });
  const resource: ResourceDefinition = {
    uri,
    name,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    mimeType: VIEW_MIME_TYPE,
    ...(_meta ? { _meta } : {}),
    cache,
    read: html !== undefined ? () => contents(html) : async ({ env }) => contents(await readPage(env, page!)),
  };
  madeView(resource);
  return resource;
}

/** spec extensions/apps, Content Requirements: the URI MUST start with `ui://`. */
function checkViewUri(uri: string, where: string): void {
  if (typeof uri !== 'string' || !/^ui:\/\/[^\s/]+/.test(uri))
    throw new Error(`${where}: the URI must start with ui:// and a name, e.g. "ui://world-clock/view"`);
}
