/**
 * The answers the sign-in code gives itself, in front of the library's endpoints: an OAuth error
 * (RFC 6749 5.2: JSON with `error` and `error_description`, never cached), and the store (OAUTH_KV)
 * failing, which is an outage to retry, never the client's fault.
 */

/** The provider or the token store unavailable: how long a client should wait before it tries again. */
export const RETRY_AFTER_SECONDS = 5;

export function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
  });
}

/**
 * Logs that the store failed (an operator's alert; input cannot cause it, every value that becomes
 * a key being bounded first, ./limits.ts), with the error's message only, clipped.
 */
export function logStoreFailure(where: string, error: unknown): void {
  console.error(
    `sign-in: the grant store (OAUTH_KV) failed ${where}: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`,
  );
}

/** 503 `temporarily_unavailable` with Retry-After: the store failed; the client tries again. */
export function storeUnavailable(where: string, error: unknown): Response {
  logStoreFailure(where, error);
  return oauthError(
    503,
    'temporarily_unavailable',
    'the grant store is unavailable; retry after the time in Retry-After',
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );
}
