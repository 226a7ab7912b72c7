/**
 * The issuer's signing keys (a JWKS, RFC 7517), fetched by this isolate and kept for every
 * request it serves, so that trouble at the identity provider is never mistaken for a bad token
 * (docs/reliability.md, "The identity provider is down"):
 *
 * - one fetch at a time: the concurrent requests of a cold isolate share it;
 * - at most one fetch every JWKS_REFETCH_INTERVAL_MS, whatever floods in (unknown key ids, an
 *   issuer that is down), each bounded by AUTH_JWKS_TIMEOUT_MS;
 * - the keys are fresh for the answer's `Cache-Control: max-age` (10 min without one, 1 h at
 *   most); stale ones keep verifying while a refresh runs in the background, and for
 *   JWKS_STALE_MS more when refreshes fail;
 * - a fetch fails on no connection, no answer in time, a status other than 200 (redirects are
 *   not followed), or a body that is not a JWKS; the cause is logged and the keys in hand stay.
 */
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import type { Lifetime } from '../http/auth/auth.js';
import { readUpstreamJson } from './readUpstreamJson.js';

/** The shortest time between two fetches of one isolate. */
export const JWKS_REFETCH_INTERVAL_MS = 5_000;
export const JWKS_DEFAULT_MAX_AGE_MS = 10 * 60_000;
const JWKS_LONGEST_MAX_AGE_MS = 60 * 60_000;
/** How long keys past their freshness keep verifying while the issuer cannot be reached. */
export const JWKS_STALE_MS = 60 * 60_000;
/** A JWKS is a few KiB; a body this long is not one. */
const MAX_JWKS_CHARS = 256 * 1024;
const MAX_LOGGED_CHARS = 200;

/** The keys could not be had: why, and how long until the issuer is asked again. */
interface KeysUnavailable {
  readonly cause: string;
  readonly retryAfterMs: number;
}

interface KeySet {
  readonly getKey: JWTVerifyGetKey;
  readonly fetchedAt: number;
  readonly freshUntil: number;
  readonly usableUntil: number;
}

/** One key cache per deployment's settings (parsed once per isolate, so one cache per isolate). */
const keysBySettings = new WeakMap<object, IssuerKeys>();

/** The key cache of the issuer that `settings` names (the jwt mode's JWKS, Access's team certs), made on first use. */
export function issuerKeysFor(settings: object, url: string, timeoutMs: number): IssuerKeys {
  let keys = keysBySettings.get(settings);
  if (keys === undefined) keysBySettings.set(settings, (keys = new IssuerKeys(url, timeoutMs)));
  return keys;
}

/** One issuer's keys, as this isolate holds them. */
export class IssuerKeys {
  private keys: KeySet | undefined = undefined;
  /** The fetch in flight, shared by everyone who waits for keys. */
  private pending: Promise<void> | undefined = undefined;
  /** When the last fetch started, and why it failed ('' when it did not). */
  private lastAttempt = -Infinity;
  private failure = '';

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  /** Keys to verify with at once: fresh ones, or stale ones while a refresh runs in the background. */
  inHand(now: number, lifetime: Lifetime | undefined): JWTVerifyGetKey | undefined {
    const keys = this.keys;
    if (keys === undefined || now >= keys.usableUntil) return undefined;
    if (now >= keys.freshUntil && this.pending === undefined && now - this.lastAttempt >= JWKS_REFETCH_INTERVAL_MS)
      this.fetch(now, lifetime);
    return keys.getKey;
  }

  /**
   * Keys from a fetch that started at `since` or later, when one may be made: a cold isolate
   * fetches, or joins the fetch in flight, or gives up until the interval has passed. `patient`
   * (the keys in hand lack the token's key id) waits for the next allowed fetch instead, so a key
   * rotated in verifies on first sight, and a flood of unknown key ids shares that one fetch.
   */
  async since(
    since: number,
    patient: boolean,
    lifetime: Lifetime | undefined,
  ): Promise<JWTVerifyGetKey | KeysUnavailable> {
    for (;;) {
      const pending = this.pending;
      if (pending !== undefined) {
        const started = this.lastAttempt;
        await pending;
        if (started >= since) break;
        continue;
      }
      if (this.lastAttempt >= since) break;
      const wait = this.lastAttempt + JWKS_REFETCH_INTERVAL_MS - Date.now();
      if (wait <= 0) this.fetch(Date.now(), lifetime);
      else if (patient) await new Promise((resolve) => setTimeout(resolve, wait));
      else break;
    }
    const now = Date.now();
    const keys = this.keys;
    const failedSince = this.failure !== '' && this.lastAttempt >= since;
    if (keys !== undefined && now < keys.usableUntil && !failedSince) return keys.getKey;
    return {
      cause: this.failure || 'no keys fetched yet',
      retryAfterMs: Math.max(this.lastAttempt + JWKS_REFETCH_INTERVAL_MS - now, 0),
    };
  }

  private fetch(now: number, lifetime: Lifetime | undefined): void {
    this.lastAttempt = now;
    const pending = fetchKeySet(this.url, this.timeoutMs).then(
      (keys) => {
        this.keys = keys;
        this.failure = '';
      },
      (error: unknown) => {
        this.failure = bounded(error instanceof KeyFetchFailed ? error.message : `unexpected error: ${String(error)}`);
        const keys = this.keys;
        const at = Date.now();
        console.warn(
          keys !== undefined && at < keys.usableUntil
            ? `JWKS refresh from ${bounded(this.url)} failed: ${this.failure}; still verifying with the stale keys fetched ${Math.round((at - keys.fetchedAt) / 1000)} s ago, for ${Math.round((keys.usableUntil - at) / 1000)} s more`
            : `JWKS fetch from ${bounded(this.url)} failed: ${this.failure}; tokens cannot be verified (503) until it succeeds`,
        );
      },
    );
    this.pending = pending.finally(() => (this.pending = undefined));
    // The requests that share this fetch must not be stranded if the one that started it ends first.
    if (typeof lifetime?.waitUntil === 'function') lifetime.waitUntil(this.pending);
  }
}

/** jose's verdict when no key of the set has the token's `kid`: fetch again, the issuer may have rotated its keys. */
const UNKNOWN_KEY = Symbol('unknown key');

/**
 * A token verified with the issuer's keys, the one way for every kind of JWT the Worker accepts
 * (OAuth access tokens, Cloudflare Access tokens): with the keys in hand, else with those of a
 * fetch, which only a `plausible` token may cause (one refused whatever the keys say costs no
 * fetch). `verify` answers the caller, undefined for a bad token, or UNKNOWN_KEY; the result is
 * KeysUnavailable when the keys cannot be had (the request is answered 503, never 401).
 */
export async function verifiedWith<T>(
  keys: IssuerKeys,
  lifetime: Lifetime | undefined,
  verify: (getKey: JWTVerifyGetKey) => Promise<T | undefined | typeof UNKNOWN_KEY>,
  plausible: () => boolean,
): Promise<T | KeysUnavailable | undefined> {
  const now = Date.now();
  const inHand = keys.inHand(now, lifetime);
  if (inHand !== undefined) {
    const verdict = await verify(inHand);
    if (verdict !== UNKNOWN_KEY) return verdict;
  }
  if (!plausible()) return undefined;
  const fetched = await keys.since(now, inHand !== undefined, lifetime);
  if (typeof fetched !== 'function') return fetched;
  const verdict = await verify(fetched);
  return verdict === UNKNOWN_KEY ? undefined : verdict;
}

/** What jose's verification ends in: its value, undefined for a bad token (expired, wrong issuer or audience, bad signature), or UNKNOWN_KEY. */
export async function joseVerdict<T>(
  verify: () => Promise<T | undefined>,
): Promise<T | undefined | typeof UNKNOWN_KEY> {
  try {
    return await verify();
  } catch (error) {
    return (error as { code?: unknown } | null)?.code === 'ERR_JWKS_NO_MATCHING_KEY' ? UNKNOWN_KEY : undefined;
  }
}

/** Why a fetch of the keys failed, in words for the log. */
class KeyFetchFailed extends Error {}

async function fetchKeySet(url: string, timeoutMs: number): Promise<KeySet> {
  const signal = AbortSignal.timeout(timeoutMs);
  const failed = (why: string) => new KeyFetchFailed(signal.aborted ? `no answer within ${timeoutMs} ms` : why);
  let response: Response;
  try {
    // A redirect is not followed: the keys come from where they are configured, and an open
    // redirect on the issuer's host must not choose them.
    response = await fetch(url, { headers: { Accept: 'application/json' }, redirect: 'manual', signal });
  } catch (error) {
    throw failed(`could not connect (${error instanceof Error ? error.message : String(error)})`);
  }
  const read = await readUpstreamJson(response, MAX_JWKS_CHARS);
  if ('failure' in read) throw failed(read.failure);
  const json = read.json;
  let getKey: JWTVerifyGetKey;
  try {
    getKey = createLocalJWKSet(json as Parameters<typeof createLocalJWKSet>[0]);
  } catch {
    throw failed('JSON that is not a JSON Web Key Set');
  }
  const fetchedAt = Date.now();
  const freshUntil = fetchedAt + maxAgeMs(response.headers.get('Cache-Control'));
  return { getKey, fetchedAt, freshUntil, usableUntil: freshUntil + JWKS_STALE_MS };
}

/** RFC 9111 5.2.2.1 max-age, at most an hour; 10 minutes when the issuer says nothing. */
function maxAgeMs(cacheControl: string | null): number {
  const seconds =
    cacheControl === null ? undefined : /(?:^|,)\s*max-age\s*=\s*"?(\d{1,9})"?\s*(?:,|$)/i.exec(cacheControl)?.[1];
  return seconds === undefined ? JWKS_DEFAULT_MAX_AGE_MS : Math.min(Number(seconds) * 1000, JWKS_LONGEST_MAX_AGE_MS);
}

/** A value for the log, cut to a bounded length. */
const bounded = (text: string) => (text.length > MAX_LOGGED_CHARS ? `${text.slice(0, MAX_LOGGED_CHARS)}…` : text);
