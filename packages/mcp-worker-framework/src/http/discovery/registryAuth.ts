/**
 * `GET /.well-known/mcp-registry-auth`: the proof the official MCP Registry fetches when a
 * publisher runs `mcp-publisher login http --domain <this host>`, to grant the names of that
 * domain (`com.example/…` for example.com; docs/discovery.md, "Publishing"). It is the public
 * half of the publisher's key, `v=MCPv1; k=ed25519; p=…`, set as MCP_REGISTRY_AUTH. The registry
 * asks for plain text and follows no redirect, so the answer is the line itself, 200; unset, 404.
 */
import type { HttpContext } from '../context.js';

export const REGISTRY_AUTH_PATH = '/.well-known/mcp-registry-auth';

export function registryAuth({ settings }: HttpContext): Response | undefined {
  if (settings.registryAuth === undefined) return undefined;
  // no-cache: a rotated key is seen at the next login, not when a cache lets go of the old one.
  return new Response(settings.registryAuth, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
  });
}
