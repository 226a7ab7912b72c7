/**
 * `/oauth/token` (a grant, a refresh, a revocation: RFC 6749 3.2, RFC 7009), the library's, with
 * its form read here first within a size cap and every value that becomes a KV key held to the
 * shape the library issues (./limits.ts): a code or refresh token of another shape is
 * `invalid_grant`, a client id `invalid_client`, a token to revoke needs nothing (RFC 7009 2.2:
 * an invalid token is no error). The library answers the rest; the store failing is 503.
 */
import { readCapped } from '../http/transport/body.js';
import type { HttpContext } from '../http/context.js';
import { isClientId, isCredential, MAX_TOKEN_FORM_BYTES } from './limits.js';
import { oauthError, storeUnavailable } from './oauthError.js';
import type { SignInServer } from './signInServer.js';

export async function tokenEndpoint(context: HttpContext, signIn: SignInServer): Promise<Response> {
  const { request } = context;
  // Not a form POST: the library refuses it (405, 400) without reading anything.
  if (
    request.method !== 'POST' ||
    !/^application\/x-www-form-urlencoded\s*(?:;|$)/i.test(request.headers.get('Content-Type') ?? '')
  ) {
    return library(context, signIn, request);
  }
  const declared = request.headers.get('Content-Length');
  const bytes =
    declared !== null && Number(declared) > MAX_TOKEN_FORM_BYTES
      ? undefined
      : await readCapped(request.body, MAX_TOKEN_FORM_BYTES);
  if (bytes === undefined)
    return oauthError(413, 'invalid_request', `the form is larger than ${MAX_TOKEN_FORM_BYTES} bytes`);
  const form = new URLSearchParams(new TextDecoder().decode(bytes));
  const refused = refusal(form, request.headers.get('Authorization'));
  if (refused) return refused;
  return library(context, signIn, new Request(request, { body: new Uint8Array(bytes) }));
}

/** What the form's keys refuse, before the library looks any of them up. */
function refusal(form: URLSearchParams, authorization: string | null): Response | undefined {
  const basic = authorization !== null && /^basic /i.test(authorization);
  const clientIds = [
    ...form.getAll('client_id'),
    ...(basic ? [basicClientId(authorization)] : []),
    ...form.getAll('client_assertion').map(assertionIssuer),
  ];
  if (clientIds.some((id) => id !== '' && !isClientId(id))) {
    return oauthError(
      401,
      'invalid_client',
      'client authentication failed',
      basic ? { 'WWW-Authenticate': 'Basic realm="OAuth"' } : {},
    );
  }
  if ([...form.getAll('code'), ...form.getAll('refresh_token')].some((value) => !isCredential(value))) {
    return oauthError(400, 'invalid_grant', 'the code or refresh token is not one this server issued');
  }
  if (!form.has('grant_type') && form.getAll('token').some((value) => !isCredential(value)))
    return new Response(null, { status: 200 });
  return undefined;
}

/** The client id of `Authorization: Basic` (RFC 6749 2.3.1: form-encoded, then base64); a header too long to hold a client id is no client id. */
function basicClientId(authorization: string): string {
  if (authorization.length > 2048) return authorization;
  try {
    const decoded = atob(authorization.slice(6).trim());
    const colon = decoded.indexOf(':');
    return decodeURIComponent((colon === -1 ? decoded : decoded.slice(0, colon)).replace(/\+/g, ' '));
  } catch {
    return ''; // the library refuses a malformed Basic header itself, without a lookup
  }
}

/** RFC 7523 2.2: without `client_id`, the client is the assertion's `iss`, which the library looks up. */
function assertionIssuer(assertion: string): string {
  try {
    const payload: unknown = JSON.parse(atob((assertion.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')));
    const iss = typeof payload === 'object' && payload !== null ? (payload as { iss?: unknown }).iss : undefined;
    return typeof iss === 'string' ? iss : '';
  } catch {
    return '';
  }
}

/** The library's endpoint; the store failing is an outage (503), never the router's 500. */
export async function library(context: HttpContext, signIn: SignInServer, request: Request): Promise<Response> {
  try {
    return await signIn.server.fetch(request, context.env, context.ctx);
  } catch (error) {
    return storeUnavailable(`at ${new URL(request.url).pathname}`, error);
  }
}
