/** A request as the protocol core serves it (`McpRequest`), for tests that call `server.handle()` with no transport. */
import type { RequestMeta } from '../../src/mcp/meta';
import type { McpRequest } from '../../src/mcp/request';
import type { JSONRPCRequest } from '../../src/mcp/types';
import type { WorkerEnv } from '../../src/env';

export const MODERN_META: RequestMeta = { protocolVersion: '2026-07-28', clientCapabilities: {} };

/** `message` with `meta`, lent nothing but what `overrides` gives (no caller, a signal that never aborts). */
export function mcpRequest(
  message: JSONRPCRequest,
  meta: RequestMeta = MODERN_META,
  overrides: Partial<McpRequest> = {},
): McpRequest {
  return {
    message,
    meta,
    caller: undefined,
    signal: new AbortController().signal,
    abort: () => {},
    notify: () => {},
    env: {} as WorkerEnv,
    secret: 'unit secret',
    ...overrides,
  };
}
