/** The answers of the HTTP binding: Cache-Control from a cache policy, header sets shared but never mutated. */
import { describe, expect, it } from 'vitest';
import { invalidParams } from '../../../src/mcp/errors';
import { cacheControl, errorResponse, replyResponse } from '../../../src/http/responses';

describe('cacheControl', () => {
  it.each([
    [{ ttlMs: 3_600_000, cacheScope: 'public' as const }, 'public, max-age=3600'],
    [{ ttlMs: 1999, cacheScope: 'private' as const }, 'private, max-age=1'],
    [{ ttlMs: 999, cacheScope: 'public' as const }, 'public, no-cache'],
    [{ ttlMs: 0, cacheScope: 'private' as const }, 'private, no-cache'],
    [undefined, 'no-store'],
  ])('maps %j to %s', (policy, header) => {
    expect(cacheControl(policy)).toBe(header);
  });
});

describe('answers share their header sets, never their headers', () => {
  it('a header set on one answer (Retry-After, CORS) does not reach the next one', () => {
    const policy = { ttlMs: 0, cacheScope: 'private' } as const;
    for (const make of [
      () => errorResponse(1, invalidParams('x')),
      () => replyResponse(1, { result: {}, cache: policy }),
      () => replyResponse(1, { result: {} }),
    ]) {
      const first = make();
      first.headers.set('Retry-After', '1');
      first.headers.set('Access-Control-Allow-Origin', 'https://a.example');
      const second = make();
      expect(second.headers.get('Retry-After')).toBeNull();
      expect(second.headers.get('Access-Control-Allow-Origin')).toBeNull();
      expect(second.headers.get('Content-Type')).toBe('application/json');
    }
  });
});
