/**
 * A built page, read from the Worker's static assets (the `ASSETS` binding of `[assets]` in
 * wrangler.toml) rather than carried in its script: a view bundles a client SDK of a few hundred
 * kilobytes that a cold start would otherwise parse. Kept per isolate once read: a deployment's
 * assets never change under it.
 */
import { misconfigured, type WorkerEnv } from '../mcp/internal.js';
import { checkDocument } from './checkDocument.js';

const pages = new Map<string, string>();

export async function readPage(env: WorkerEnv, page: string): Promise<string> {
  const kept = pages.get(page);
  if (kept !== undefined) return kept;
  const assets = (env as { ASSETS?: Fetcher }).ASSETS;
  if (!assets)
    throw misconfigured(
      'ASSETS',
      'is not bound: a view is read from static assets, `[assets] directory = "build"` and `binding = "ASSETS"` in wrangler.toml (docs/apps.md)',
    );
  // Only the path matters to the binding; the host is a placeholder.
  const response = await assets.fetch(`https://assets.invalid/views/${page}.html`);
  if (!response.ok) {
    await response.body?.cancel();
    throw misconfigured(
      'ASSETS',
      `has no views/${page}.html (${response.status}): views/${page}/ is built into it by npm run build:views, which wrangler runs before dev, test and deploy (docs/apps.md)`,
    );
  }
  const html = await response.text();
  checkDocument(html, `page "${page}"`);
  pages.set(page, html);
  return html;
}
