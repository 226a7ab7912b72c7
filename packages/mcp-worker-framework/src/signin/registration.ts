/**
 * `/oauth/register` (RFC 7591), the library's, behind what this server keeps of a client: the body
 * read within MAX_REGISTRATION_BYTES; only the fields the consent page and the flow use (the rest,
 * contacts, logo, policy and terms URIs, their translations, dropped); each held to a size; redirect
 * URIs whose host is a plain host name or address, so none can break a header of the consent page;
 * then SIGN_IN_RATE_LIMITER per address, the last check before the library stores the client.
 */
import { readCapped } from '../http/transport/body.js';
import type { HttpContext } from '../http/context.js';
import {
  MAX_CLIENT_NAME_CHARS,
  MAX_REDIRECT_URI_CHARS,
  MAX_REDIRECT_URIS,
  MAX_REGISTRATION_BYTES,
  SIGN_IN_LIMIT_PERIOD_SECONDS,
  withinSignInLimit,
} from './limits.js';
import { oauthError } from './oauthError.js';
import type { SignInServer } from './signInServer.js';
import { library } from './tokenEndpoint.js';

/** RFC 7591 2, the fields kept: short words, or lists of a few of them. */
const WORD_FIELDS = ['token_endpoint_auth_method'] as const;
const WORD_LIST_FIELDS = ['grant_types', 'response_types'] as const;
const WORD = /^[\x21-\x7e]{1,64}$/;
/** A name for people: no control characters. */
const CLIENT_NAME = new RegExp(`^[^\\p{Cc}]{1,${MAX_CLIENT_NAME_CHARS}}$`, 'u');
/** A host a header may name: letters, digits, dots and hyphens, or a bracketed IPv6 address. */
const PLAIN_HOST = /^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export async function registration(context: HttpContext, signIn: SignInServer): Promise<Response> {
  const { request } = context;
  // Not a POST: the library answers (405), having read nothing.
  if (request.method !== 'POST') return library(context, signIn, request);
  const declared = request.headers.get('Content-Length');
  const bytes =
    declared !== null && Number(declared) > MAX_REGISTRATION_BYTES
      ? undefined
      : await readCapped(request.body, MAX_REGISTRATION_BYTES);
  if (bytes === undefined)
    return oauthError(413, 'invalid_request', `a registration is at most ${MAX_REGISTRATION_BYTES} bytes`);
  let metadata: unknown;
  try {
    metadata = JSON.parse(utf8.decode(bytes));
  } catch {
    return oauthError(400, 'invalid_request', 'the registration is not JSON');
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    return oauthError(400, 'invalid_client_metadata', 'the registration is not a JSON object');
  const kept = keptMetadata(metadata as Record<string, unknown>);
  if (kept instanceof Response) return kept;
  if (!(await withinSignInLimit(context, 'register'))) {
    return oauthError(
      429,
      'temporarily_unavailable',
      'too many registrations from this address; retry after the time in Retry-After',
      { 'Retry-After': String(SIGN_IN_LIMIT_PERIOD_SECONDS) },
    );
  }
  const headers = new Headers(request.headers);
  headers.delete('Content-Length');
  return library(context, signIn, new Request(request.url, { method: 'POST', headers, body: JSON.stringify(kept) }));
}

/** The fields kept, each checked; or the RFC 7591 3.2.2 error that refuses the registration. */
function keptMetadata(metadata: Record<string, unknown>): Record<string, unknown> | Response {
  const kept: Record<string, unknown> = {};
  const { redirect_uris: redirectUris, client_name: clientName } = metadata;
  if (
    !Array.isArray(redirectUris) ||
    redirectUris.length === 0 ||
    redirectUris.length > MAX_REDIRECT_URIS ||
    !redirectUris.every(isRedirectUri)
  ) {
    return oauthError(
      400,
      'invalid_redirect_uri',
      `redirect_uris must be 1 to ${MAX_REDIRECT_URIS} absolute URIs of at most ${MAX_REDIRECT_URI_CHARS} characters, each host a plain host name or address`,
    );
  }
  kept.redirect_uris = redirectUris;
  if (clientName !== undefined) {
    if (typeof clientName !== 'string' || !CLIENT_NAME.test(clientName))
      return oauthError(
        400,
        'invalid_client_metadata',
        `client_name must be text of 1 to ${MAX_CLIENT_NAME_CHARS} characters`,
      );
    kept.client_name = clientName;
  }
  for (const field of WORD_FIELDS) {
    const value = metadata[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !WORD.test(value))
      return oauthError(400, 'invalid_client_metadata', `${field} must be one short word`);
    kept[field] = value;
  }
  for (const field of WORD_LIST_FIELDS) {
    const value = metadata[field];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.length > 5 || !value.every((one) => typeof one === 'string' && WORD.test(one)))
      return oauthError(400, 'invalid_client_metadata', `${field} must be a list of at most 5 short words`);
    kept[field] = value;
  }
  return kept;
}

/** The characters of a URI (RFC 3986 2): nothing JSON must escape, so a stored URI is as long as it was sent. */
const URI_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/** An absolute URI within the size, its host (when it has one) plain: `;` or `,` there would end a header's value. */
function isRedirectUri(value: unknown): boolean {
  if (
    typeof value !== 'string' ||
    value.length > MAX_REDIRECT_URI_CHARS ||
    !URI_CHARS.test(value) ||
    !URL.canParse(value)
  )
    return false;
  const { host, hostname } = new URL(value);
  return host === '' || PLAIN_HOST.test(hostname);
}
