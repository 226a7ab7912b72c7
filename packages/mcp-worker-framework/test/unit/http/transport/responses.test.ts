/** The answers of the HTTP binding: Cache-Control from a cache policy, header sets shared but never mutated. */
import { describe, expect, it } from 'vitest';
import { invalidParams } from '../../../../src/mcp/errors';
import { RawJson } from '../../../../src/mcp/json';
import { cacheControl, errorResponse, resultResponse } from '../../../../src/http/transport/responses';

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
    for (const [make, own] of [
      [() => errorResponse(1, invalidParams('x'), 400), null],
      // An error with headers of its own (a challenge, Retry-After) has them on its answer alone.
      [() => errorResponse(1, invalidParams('x'), 429, { 'Retry-After': '60' }), '60'],
      [() => resultResponse(1, { result: new RawJson('{}'), cache: policy }, 'Authorization'), null],
      [() => resultResponse(1, { result: new RawJson('{}') }, 'Authorization'), null],
    ] as const) {
      const first = make();
      first.headers.set('Retry-After', '1');
      first.headers.set('Access-Control-Allow-Origin', 'https://a.example');
      const second = make();
      expect(second.headers.get('Retry-After')).toBe(own);
      expect(second.headers.get('Access-Control-Allow-Origin')).toBeNull();
      expect(second.headers.get('Content-Type')).toBe('application/json');
    }
  });
});

describe('Vary on a private answer', () => {
  const result = new RawJson('{}');
  const privately = { ttlMs: 60_000, cacheScope: 'private' } as const;
  const publicly = { ttlMs: 60_000, cacheScope: 'public' } as const;

  it('names the header the credential arrives in, as it is given, for each mode alike (one policy object)', () => {
    expect(resultResponse(1, { result, cache: privately }, 'Cf-Access-Jwt-Assertion').headers.get('Vary')).toBe(
      'Cf-Access-Jwt-Assertion',
    );
    // The same policy under another mode is not answered with the first one's header set.
    expect(resultResponse(1, { result, cache: privately }, 'Authorization').headers.get('Vary')).toBe('Authorization');
    expect(resultResponse(1, { result, cache: privately }, 'Cf-Access-Jwt-Assertion').headers.get('Vary')).toBe(
      'Cf-Access-Jwt-Assertion',
    );
  });

  it('is absent from a public or an uncached answer: neither depends on the caller', () => {
    expect(resultResponse(1, { result, cache: publicly }, 'Authorization').headers.get('Vary')).toBeNull();
    expect(resultResponse(1, { result }, 'Authorization').headers.get('Vary')).toBeNull();
  });
});
