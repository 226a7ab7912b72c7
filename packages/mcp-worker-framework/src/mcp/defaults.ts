/**
 * What a server gets for each setting of its definition (`ServerDefinition`) that it leaves out.
 * Change one for your server in `src/server.ts`, not here.
 */
import type { CacheableMethod } from './define.js';
import type { CachePolicy } from './types.js';

/** Lists and discover are the same for every caller: public, and fresh for a while. Reads: fresh for a minute. */
export const DEFAULT_CACHE: Readonly<Record<CacheableMethod, CachePolicy>> = {
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
  'tools/list': { ttlMs: 300_000, cacheScope: 'public' },
  'prompts/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/read': { ttlMs: 60_000, cacheScope: 'public' },
};

export const DEFAULT_PAGE_SIZE = 50;
export const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESULT_CHARS = 1024 * 1024;
