/**
 * AUTH_MODE = "introspect": opaque access tokens, asked about at the authorization server's
 * token introspection endpoint (RFC 7662). The request is a form POST of the token, the server
 * authenticated with HTTP Basic (RFC 7662 2.1, RFC 6749 2.3.1: id and secret form-encoded
 * first). An answer is kept per isolate, keyed by the SHA-256 of the token (the token itself is
 * never kept), for at most AUTH_INTROSPECTION_CACHE_SECONDS and never past the token's `exp`;
 * concurrent requests with one token share one introspection.
 *
 * `active: false` is a bad token (401 invalid_token); so is an active token that is no access token
 * (its `token_type`), whose `aud` does not name AUTH_RESOURCE (or is missing, unless
 * AUTH_INTROSPECTION_AUD = "optional"), that has expired, or that names nobody. A 4xx about the
 * token (many servers answer 400 to a malformed one) refuses that token only. An endpoint that
 * cannot be reached, answers too late, with a 5xx or 429, or with something that is not an answer
 * cannot say: 503 with Retry-After, never 401 (docs/reliability.md). After such a failure the
 * endpoint is left alone for INTROSPECTION_RETRY_AFTER_MS: tokens not yet known get their 503 at
 * once, as the JWKS fetch does, so an authorization server in trouble is not hammered. A 401 or
 * 403 refuses this server's own client credentials: a misconfiguration, answered 503 the same way
 * and logged as an error naming the settings.
 *
 * Subjects (docs/production.md): a person's `sub` as it is; a machine's (a client-credentials
 * token, `./tokenHolder.ts`) `client_id:<client_id>`; without either, `username:<username>`, so
 * that no subject from another field can equal a `sub`. A `sub` that is there but empty, or that
 * starts with one of those prefixes, names nobody.
 */
import { type Caller, scopeTokens, sha256Hex } from '../mcp/internal.js';
import { addressedTo } from './audience.js';
import { isSubject, unreachable, type Verifier } from '../http/auth/auth.js';
import { readUpstreamJson } from './readUpstreamJson.js';
import { tokenHolder, type TokenHolder } from './tokenHolder.js';

/** Answers kept per isolate, at most: the oldest goes first. */
const INTROSPECTION_CACHE_ENTRIES = 1000;
/** How long the endpoint is left alone after it failed, and so how soon a client may try again. */
const INTROSPECTION_RETRY_AFTER_MS = 5_000;
/** An introspection answer is a small JSON object; a longer body is not one. */
const MAX_ANSWER_CHARS = 64 * 1024;
const MAX_LOGGED_CHARS = 200;
const CLOCK_SKEW_SECONDS = 30;
/** RFC 6750 2.1 b64token: what a bearer token may contain; anything else is refused without a call. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** An answer as kept: the caller, or undefined for a token that is not active, until `until` (ms). */
interface Kept {
  readonly caller: Caller | undefined;
  readonly until: number;
}

/** A token's answer, or why the endpoint could not give one (`misconfigured`: it refused this server's own credentials). */
class EndpointFailed {
  constructor(
    readonly why: string,
    readonly misconfigured = false,
  ) {}
}

/** RFC 7662 2.2 `token_type`, when the answer has one: the types of an access token (case-insensitive); any other is refused. */
const ACCESS_TOKEN_TYPES = new Set(['bearer', 'access_token', 'urn:ietf:params:oauth:token-type:access_token']);
/** A person named by `username` alone; a `sub` that starts with it (or with a machine's prefix) is refused, so the two never meet. */
const USERNAME_PREFIX = 'username:';

/** One cache (and its introspections in flight) per deployment's settings, parsed once per isolate. */
const cachesBySettings = new WeakMap<IntrospectAuthSettings, Cache>();

interface Cache {
  readonly kept: Map<string, Kept>;
  readonly pending: Map<string, Promise<Kept | EndpointFailed>>;
  /** Until when (ms) the endpoint is not asked, after a failure. */
  downUntil: number;
}

export const verifyIntrospection: Verifier<IntrospectAuthSettings> = async (token, auth, lifetime) => {
  if (!B64TOKEN.test(token)) return undefined;
  const cache = cacheOf(auth);
  const key = await sha256Hex(token); // the token itself is never kept
  const now = Date.now();
  const kept = cache.kept.get(key);
  if (kept !== undefined && now < kept.until) return kept.caller;
  if (kept !== undefined) cache.kept.delete(key);
  let pending = cache.pending.get(key);
  if (pending === undefined) {
    if (now < cache.downUntil) return unreachable(cache.downUntil - now);
    pending = ask(token, auth).then((answer) => {
      cache.pending.delete(key);
      if (answer instanceof EndpointFailed) {
        cache.downUntil = Date.now() + INTROSPECTION_RETRY_AFTER_MS;
        const message = `token introspection at ${bounded(auth.url)} failed: ${answer.why}; tokens not yet known cannot be checked (503) for the next ${INTROSPECTION_RETRY_AFTER_MS / 1000} s`;
        if (answer.misconfigured) console.error(message);
        else console.warn(message);
        return answer;
      }
      if (answer.until > Date.now()) {
        if (cache.kept.size >= INTROSPECTION_CACHE_ENTRIES) cache.kept.delete(cache.kept.keys().next().value!);
        cache.kept.set(key, answer);
      }
      return answer;
    });
    cache.pending.set(key, pending);
    // The requests that share this introspection must not be stranded if the one that started it ends first.
    if (typeof lifetime?.waitUntil === 'function') lifetime.waitUntil(pending);
  }
  const answer = await pending;
  return answer instanceof EndpointFailed ? unreachable(INTROSPECTION_RETRY_AFTER_MS) : answer.caller;
};

function cacheOf(auth: IntrospectAuthSettings): Cache {
  let cache = cachesBySettings.get(auth);
  if (cache === undefined) cachesBySettings.set(auth, (cache = { kept: new Map(), pending: new Map(), downUntil: 0 }));
  return cache;
}

/** One introspection (RFC 7662 2.1, 2.2): the answer as kept, or why the endpoint gave none. */
async function ask(token: string, auth: IntrospectAuthSettings): Promise<Kept | EndpointFailed> {
  const signal = AbortSignal.timeout(auth.timeoutMs);
  const failed = (why: string) => new EndpointFailed(signal.aborted ? `no answer within ${auth.timeoutMs} ms` : why);
  let response: Response;
  try {
    response = await fetch(auth.url, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${btoa(`${formEncode(auth.clientId)}:${formEncode(auth.clientSecret)}`)}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      // The endpoint is where it is configured: a redirect is a failure, not a place to send the token.
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    return failed(`could not connect (${error instanceof Error ? error.message : String(error)})`);
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel().catch(() => undefined);
    return new EndpointFailed(
      `HTTP ${response.status}: the endpoint refused this server's own credentials; check AUTH_INTROSPECTION_CLIENT_ID and AUTH_INTROSPECTION_CLIENT_SECRET`,
      true,
    );
  }
  if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
    // A 4xx about this one token (many servers answer 400 to one they cannot parse): that token is refused, the endpoint stays open for the others.
    await response.body?.cancel().catch(() => undefined);
    return { caller: undefined, until: Date.now() + auth.cacheSeconds * 1000 };
  }
  const read = await readUpstreamJson(response, MAX_ANSWER_CHARS);
  if ('failure' in read) return failed(read.failure);
  const answer = read.json;
  // RFC 7662 2.2: a JSON object whose `active` is a boolean; anything else is no answer.
  if (
    typeof answer !== 'object' ||
    answer === null ||
    Array.isArray(answer) ||
    typeof (answer as { active?: unknown }).active !== 'boolean'
  ) {
    return failed('JSON that is not an introspection answer (no boolean "active")');
  }
  return kept(answer as Record<string, unknown>, auth);
}

/** What an answer says of the token, and until when it may be believed. */
function kept(answer: Record<string, unknown>, auth: IntrospectAuthSettings): Kept {
  const now = Date.now();
  const bound = now + auth.cacheSeconds * 1000;
  const { exp, nbf, aud, scope, token_type: tokenType } = answer;
  // RFC 7662 2.2: the times are optional; an answer that gives them is held to them.
  const expiresAt = typeof exp === 'number' ? exp * 1000 : undefined;
  const expired = exp !== undefined && !(expiresAt !== undefined && expiresAt > now - CLOCK_SKEW_SECONDS * 1000);
  const early = nbf !== undefined && !(typeof nbf === 'number' && nbf * 1000 <= now + CLOCK_SKEW_SECONDS * 1000);
  // spec 2026-07-28 basic/authorization: the token must have been issued for this resource.
  const foreign = aud === undefined ? !auth.audienceOptional : !addressedTo(aud, auth.resource);
  const notAccess =
    tokenType !== undefined && !(typeof tokenType === 'string' && ACCESS_TOKEN_TYPES.has(tokenType.toLowerCase()));
  const holder = holderOf(answer);
  const issuer = issuerOf(answer, auth);
  if (answer.active !== true || expired || early || foreign || notAccess || holder === undefined)
    return { caller: undefined, until: bound };
  if (aud === undefined)
    console.log(
      `token introspection: a token with no aud was accepted for ${bounded(auth.resource)} (AUTH_INTROSPECTION_AUD = "optional")`,
    );
  return {
    caller: {
      ...holder,
      ...(issuer !== undefined ? { issuer } : {}),
      scopes: scopeTokens(scope),
      claims: answer as Caller['claims'],
      // RFC 7662 2.2: `exp` is optional; without it the answer says nothing of when the token ends.
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    },
    until: Math.min(bound, expiresAt ?? bound),
  };
}

/**
 * Who the answer names (`./tokenHolder.ts`): a person's `sub`, a machine's `client_id:<client_id>`;
 * without either, a person's `username:<username>`. A `sub` that is there but empty, or that
 * starts with one of those prefixes, names nobody (undefined).
 */
function holderOf(answer: Record<string, unknown>): TokenHolder {
  const holder = tokenHolder(answer);
  if (holder?.kind === 'person' && holder.subject.startsWith(USERNAME_PREFIX)) return undefined;
  if (holder !== undefined || answer.sub !== undefined) return holder;
  const { username } = answer;
  const subject = typeof username === 'string' && username !== '' ? `${USERNAME_PREFIX}${username}` : undefined;
  return isSubject(subject) ? { kind: 'person', subject } : undefined;
}

/** Who vouched for the token: the answer's `iss` (RFC 7662 2.2), else AUTH_ISSUER, else nobody named. */
const issuerOf = ({ iss }: Record<string, unknown>, auth: IntrospectAuthSettings): string | undefined =>
  isSubject(iss) ? iss : auth.issuer;

/** RFC 6749 2.3.1: the client id and secret are form-encoded (application/x-www-form-urlencoded) before Basic. */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/** A value for the log, cut to a bounded length. */
const bounded = (text: string) => (text.length > MAX_LOGGED_CHARS ? `${text.slice(0, MAX_LOGGED_CHARS)}…` : text);

export interface IntrospectAuthSettings {
  mode: 'introspect';
  /** AUTH_INTROSPECTION_URL */
  url: string;
  /** AUTH_INTROSPECTION_CLIENT_ID and AUTH_INTROSPECTION_CLIENT_SECRET: HTTP Basic to the endpoint (RFC 7662 2.1). */
  clientId: string;
  clientSecret: string;
  /** AUTH_RESOURCE: an answer's `aud` must name it. */
  resource: string;
  /** AUTH_INTROSPECTION_AUD = "optional": an answer without `aud` is accepted (an authorization server that never sends one). */
  audienceOptional: boolean;
  /** AUTH_INTROSPECTION_CACHE_SECONDS: the longest an answer is kept (and never past the token's `exp`). */
  cacheSeconds: number;
  /** AUTH_INTROSPECTION_TIMEOUT_MS */
  timeoutMs: number;
  /** AUTH_ISSUER: who issues the tokens, the caller's `issuer` when an answer has no `iss`. */
  issuer: string | undefined;
  /** AUTH_SERVERS, else AUTH_ISSUER, else none (then no metadata is served). */
  authorizationServers: readonly string[];
  scopesSupported: readonly string[];
}
