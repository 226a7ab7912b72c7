/**
 * The test kit for what a browser shows, `mcp-worker-framework/testing/browser`: the system's
 * Chromium driven by playwright-core (a peer dependency: install it beside the kit), and a web
 * host of MCP Apps that renders a tool's view as a host would (docs/apps.md).
 */
export { type AppsHost, startAppsHost } from './appsHost.js';
export { chromiumPath, launchChromium, openWatched, screenshotPath, type WatchedPage } from './chromium.js';
