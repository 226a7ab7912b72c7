/**
 * A view (MCP Apps, node_modules/mcp-worker-framework/docs/apps.md): the page views/world-clock/, built into one HTML file and
 * served from the Worker's static assets. It draws the result of `world_clock` (src/tools/world-clock.ts)
 * and needs nothing outside itself, so its CSP lists no origin.
 */
import { defineAppView } from 'mcp-worker-framework/apps';

export const worldClockView = defineAppView({
  uri: 'ui://world-clock/view',
  name: 'world-clock',
  title: 'World clock',
  description: "Each zone's day as a bar, with where it is now.",
  page: 'world-clock',
  prefersBorder: true,
});
