/**
 * A page's script imports its styles; `mcp-worker build`
 * (node_modules/mcp-worker-framework/scripts/build-views.mjs) inlines them as a <style> in the page's head.
 */
declare module '*.css';
