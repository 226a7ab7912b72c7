/**
 * The path and origin of the request URL, read from the string: the hot path needs no
 * URL object (a parse costs more than the rest of routing, BENCHMARKS.md).
 */

/** The path of an absolute URL, without parsing it: `http://host:8787/mcp?x` → `/mcp`. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  let end = url.length;
  const query = url.indexOf('?', start);
  const fragment = url.indexOf('#', start);
  if (query !== -1) end = query;
  if (fragment !== -1 && fragment < end) end = fragment;
  return url.slice(start, end);
}

/** The origin of an absolute URL, without parsing it: `https://host:8787/mcp` → `https://host:8787`. */
export function originOf(url: string): string {
  const path = url.indexOf('/', url.indexOf('//') + 2);
  return path === -1 ? url : url.slice(0, path);
}
