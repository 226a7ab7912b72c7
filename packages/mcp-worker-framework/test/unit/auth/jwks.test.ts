/**
 * The key cache's clock (src/auth/jwks.ts), in process against a loopback issuer, with the
 * system time moved forward: keys are fresh for 10 minutes (or the issuer's max-age, at most an
 * hour), then refreshed in the background, and stale keys verify for a bounded time only while
 * the issuer is down.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IssuerKeys, JWKS_DEFAULT_MAX_AGE_MS, JWKS_REFETCH_INTERVAL_MS, JWKS_STALE_MS } from '../../../src/auth/jwks';
import { startIssuer, type Issuer } from '../../support/issuer';

let issuer: Issuer;
beforeAll(async () => void (issuer = await startIssuer()));
afterAll(() => issuer?.close());
afterEach(() => void vi.useRealTimers());

const jwksUrl = (issuerUrl: string) => `${issuerUrl}/.well-known/jwks.json`;

/** Waits (at most 10 s, generous: only a failing test waits it out) until `check` holds. */
async function eventually(check: () => boolean) {
  const deadline = performance.now() + 10_000;
  while (!check() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return check();
}

describe('IssuerKeys', () => {
  it('serves stale keys while the issuer is down, for JWKS_STALE_MS past their freshness, then answers unavailable', async () => {
    const tenant = await issuer.tenant('clock');
    await tenant.addKey('k1');
    const keys = new IssuerKeys(jwksUrl(tenant.issuer), 1_000);
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    expect(typeof (await keys.since(start, false, undefined))).toBe('function');
    expect(tenant.fetches).toBe(1);

    tenant.behaviour = 'status-503';
    vi.setSystemTime(start + JWKS_DEFAULT_MAX_AGE_MS - 1_000);
    expect(keys.inHand(Date.now(), undefined)).toBeTypeOf('function'); // fresh: nobody asks the issuer
    expect(tenant.fetches).toBe(1);

    vi.setSystemTime(start + JWKS_DEFAULT_MAX_AGE_MS + 1_000);
    expect(keys.inHand(Date.now(), undefined)).toBeTypeOf('function'); // stale: verifies, refreshes behind
    expect(await eventually(() => tenant.fetches === 2)).toBe(true);
    vi.setSystemTime(Date.now() + 1);
    expect(keys.inHand(Date.now(), undefined)).toBeTypeOf('function'); // the refresh failed: still the old keys

    vi.setSystemTime(start + JWKS_DEFAULT_MAX_AGE_MS + JWKS_STALE_MS + 1_000);
    expect(keys.inHand(Date.now(), undefined)).toBeUndefined(); // too old to trust
    const unavailable = await keys.since(Date.now(), false, undefined);
    expect(unavailable).toEqual({ cause: 'HTTP 503', retryAfterMs: JWKS_REFETCH_INTERVAL_MS });
    expect(tenant.fetches).toBe(3);
  });

  it("keeps keys fresh for the issuer's max-age, but never longer than an hour", async () => {
    const tenant = await issuer.tenant('max-age');
    await tenant.addKey('k1');
    tenant.maxAge = 7 * 24 * 3600;
    const keys = new IssuerKeys(jwksUrl(tenant.issuer), 1_000);
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    await keys.since(start, false, undefined);
    vi.setSystemTime(start + 59 * 60_000);
    keys.inHand(Date.now(), undefined);
    expect(tenant.fetches).toBe(1);
    vi.setSystemTime(start + 61 * 60_000);
    keys.inHand(Date.now(), undefined);
    expect(await eventually(() => tenant.fetches === 2)).toBe(true);
  });
});
