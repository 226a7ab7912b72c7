/**
 * Each rule of a request is decided once (docs/architecture.md, "Each rule decided once"): in process, a
 * server whose tool's and prompt's `visibleTo` rules count how often they are asked, served
 * through the whole pipeline (src/http/router.ts) as a client would call it.
 */
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../../src/http/router';
import { createServer, definePrompt, defineResource, defineTool, text } from '../../../src/mcp';
import { mcpHeaders, meta } from '../../support/mcp';
import type { WorkerEnv } from '../../../src/env';

const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const env = { MCP_STATE_SECRET: 'decided once', REQUEST_LOGS: 'off', LEGACY_CLIENTS: 'on' } as unknown as WorkerEnv;

/** How often each rule was asked. */
const asked = { tool: 0, prompt: 0, resource: 0 };
const server = createServer({
  info: { name: 'decided-once', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'counted',
      description: 'A tool whose visibleTo rule counts its calls',
      inputSchema: { type: 'object', properties: {} },
      // With auth off scopes are not enforced (no token to step up), but a scoped item is checked for them.
      requiredScopes: ['counted:use'],
      visibleTo: () => (asked.tool++, true),
      handler: () => text('ran'),
    }),
  ],
  prompts: [
    definePrompt({
      name: 'counted',
      description: 'A prompt whose visibleTo rule counts its calls',
      requiredScopes: ['counted:use'],
      visibleTo: () => (asked.prompt++, true),
      get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }),
    }),
  ],
  resources: [
    defineResource({
      uri: 'counted://resource',
      name: 'counted',
      requiredScopes: ['counted:use'],
      visibleTo: () => (asked.resource++, true),
      read: () => ({ contents: [{ uri: 'counted://resource', text: 'read' }] }),
    }),
  ],
});

function post(method: string, params: Record<string, unknown>, legacy = false) {
  const headers = legacy
    ? {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25',
      }
    : mcpHeaders(method, (params.name ?? params.uri) as string);
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: legacy ? params : { ...params, _meta: meta() } }),
  });
}

describe('a request through the pipeline', () => {
  it.each([
    ['tools/call', 'tool', false],
    ['prompts/get', 'prompt', false],
    ['resources/read', 'resource', false],
    ['tools/call', 'tool', true],
  ] as const)('asks the visibleTo rule of a %s once (%s, legacy: %s)', async (method, kind, legacy) => {
    asked.tool = asked.prompt = asked.resource = 0;
    const params = kind === 'resource' ? { uri: 'counted://resource' } : { name: 'counted' };
    const response = await createRouter(server).fetch(post(method, params, legacy), env, ctx);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { error?: unknown }).error).toBeUndefined();
    expect(asked[kind]).toBe(1);
  });
});
