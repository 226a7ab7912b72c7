/**
 * The two pages of the sign-in flow between the MCP client and the upstream provider, in the
 * order of the library's guide, node_modules/@cloudflare/workers-oauth-provider/docs/upstream-sign-in.md:
 *
 *   GET  /authorize       the client's request, validated by the library; the consent page
 *                         (or, for a remembered approval, straight on to the provider)
 *   POST /authorize       Allow: the provider's sign-in page, with PKCE, `state` and `nonce`;
 *                         Deny: back to the client with `access_denied`
 *   GET  /oauth/callback  the provider's answer: the code exchanged, the user known, the
 *                         authorization completed, back to the client with its code and `iss`
 *
 * The library binds each step to the browser with a `__Host-` cookie and keeps the request in KV,
 * so nothing trusted comes from the form or the URL. Errors the client may see go back to it as
 * OAuth errors only once the library has validated its redirect URI; the others are a page here.
 */
import {
  AuthorizationError,
  authorizationErrorRedirect,
  CimdFetchError,
  type AuthRequest,
} from '@cloudflare/workers-oauth-provider';
import * as oauth from 'oauth4webapi';
import { constantTimeEqual } from '../http/auth/auth.js';
import type { HttpContext } from '../http/context.js';
import { consentPage, consentPolicy, errorPage } from './consentPage.js';
import { isClientId, MAX_AUTHORIZE_QUERY_CHARS, SIGN_IN_LIMIT_PERIOD_SECONDS, withinSignInLimit } from './limits.js';
import { logStoreFailure } from './oauthError.js';
import { RETRY_AFTER_SECONDS, serverOf, type SignInServer, type SignInServers } from './signInServer.js';
import { UpstreamUnavailable, type Pending, type SignedIn } from './upstream.js';

/** The consent form is a handle, a few scopes and two choices: anything larger is not it. */
const MAX_FORM_BYTES = 16 * 1024;
const MAX_HANDLE_LENGTH = 512;

/** `/authorize`: GET shows the consent page, POST takes the decision. */
export async function authorize(context: HttpContext, servers: SignInServers): Promise<Response> {
  const signIn = serverOf(context, servers);
  if (signIn instanceof Response) return signIn;
  try {
    if (context.method === 'GET') return await showConsent(context, signIn);
    if (context.method === 'POST') return await decide(context, signIn);
    return new Response(null, { status: 405, headers: { Allow: 'GET, POST' } });
  } catch (error) {
    return failure(error);
  }
}

/** `/oauth/callback`: the provider sends the browser back here. */
export async function callback(context: HttpContext, servers: SignInServers): Promise<Response> {
  const signIn = serverOf(context, servers);
  if (signIn instanceof Response) return signIn;
  if (context.method !== 'GET') return new Response(null, { status: 405, headers: { Allow: 'GET' } });
  try {
    return await finish(context, signIn);
  } catch (error) {
    return failure(error);
  }
}

async function showConsent(context: HttpContext, signIn: SignInServer): Promise<Response> {
  // Held to the size of a client's request before anything of it becomes a KV key (./limits.ts).
  const { search, searchParams } = new URL(context.url);
  if (search.length > MAX_AUTHORIZE_QUERY_CHARS)
    return page(414, 'Sign-in cannot continue', 'This sign-in request is longer than any app sends.');
  if (!searchParams.getAll('client_id').every(isClientId))
    return page(400, 'Sign-in cannot continue', 'This app is not known here.');
  const oauthApi = signIn.server.getOAuthApi(context.env);
  const request = await oauthApi.parseAuthRequest(context.request);
  // The request is valid: the limiter comes before the first write (a consent transaction, or the upstream one).
  if (!(await withinSignInLimit(context, 'consent'))) {
    const response = page(
      429,
      'Too many sign-ins',
      'Too many sign-ins started from your network. Try again in a minute.',
    );
    response.headers.set('Retry-After', String(SIGN_IN_LIMIT_PERIOD_SECONDS));
    return response;
  }
  // An approval this browser asked to remember, for this client, redirect URI and resource, covering these scopes.
  if (await oauthApi.isConsentRemembered(context.request, request, { secret: await signIn.rememberSecret() })) {
    return toUpstream(context, signIn, request, new Headers());
  }
  const details = await oauthApi.describeConsent(request); // first: a failed lookup leaves nothing in KV
  const consent = await oauthApi.beginConsent(request);
  const offered = new Set(signIn.auth.scopesSupported);
  const nonce = oauth.generateRandomState();
  const upstreamOrigin = (await signIn.upstream.authorizationEndpoint()).origin;
  const headers = consent.headers;
  headers.set('Content-Type', 'text/html; charset=utf-8');
  headers.set('Content-Security-Policy', consentPolicy(nonce, [upstreamOrigin, formTarget(request.redirectUri)]));
  // same-origin, not no-referrer: with no-referrer a browser posts the form with `Origin: null`, which the Origin allowlist refuses.
  headers.set('Referrer-Policy', 'same-origin');
  headers.set('X-Content-Type-Options', 'nosniff');
  // What the person may grant: the scopes the client asked for that this server offers (docs/sign-in.md, "Scopes").
  const scopes = details.scope.filter((scope) => offered.has(scope));
  const offer = await signedOffer(signIn, consent.handle, scopes);
  const html = consentPage({ details, handle: consent.handle, scopes, offer, provider: signIn.providerName }, nonce);
  return new Response(html, { headers });
}

async function decide(context: HttpContext, signIn: SignInServer): Promise<Response> {
  const length = Number(context.request.headers.get('Content-Length') ?? NaN);
  if (!(length <= MAX_FORM_BYTES))
    return page(413, 'Request too large', 'The consent form was not what this page sends.');
  if (!context.request.headers.get('Content-Type')?.startsWith('application/x-www-form-urlencoded')) {
    return page(415, 'Unsupported form', 'The consent form was not what this page sends.');
  }
  const form = await context.request.formData();
  const handle = form.get('handle');
  if (typeof handle !== 'string' || handle.length === 0 || handle.length > MAX_HANDLE_LENGTH)
    return page(400, 'Consent expired', 'This consent page is not valid.');
  const oauthApi = signIn.server.getOAuthApi(context.env);
  if (form.get('decision') !== 'approve') {
    const denied = await oauthApi.denyConsent(context.request, handle);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  // Granted: what the page offered (signed with the handle, so the form cannot add to it), as far as the person ticked it.
  const ticked = new Set(form.getAll('scope'));
  const scope = (await offeredOn(signIn, handle, form.get('offer'))).filter((one) => ticked.has(one));
  const remember = form.get('remember') === 'on' ? { secret: await signIn.rememberSecret() } : undefined;
  // The library recovers the request from KV by the handle, bound to this browser's cookie: nothing else comes from the form.
  const approved = await oauthApi.approveConsent(context.request, handle, { scope, ...(remember ? { remember } : {}) });
  return toUpstream(context, signIn, approved.request, approved.headers);
}

/** The offer's field: the scopes on the page, and their signature bound to this consent's handle. */
async function signedOffer(signIn: SignInServer, handle: string, scopes: readonly string[]): Promise<string> {
  const text = scopes.join(' ');
  return `${text}.${await signIn.signOffer(`${handle}\n${text}`)}`;
}

/** The scopes the page of `handle` offered, from the form's `offer`; none when it is missing or not what the page signed. */
async function offeredOn(signIn: SignInServer, handle: string, offer: unknown): Promise<string[]> {
  if (typeof offer !== 'string') return [];
  const dot = offer.lastIndexOf('.');
  const text = offer.slice(0, Math.max(dot, 0));
  if (dot === -1 || !constantTimeEqual(offer.slice(dot + 1), await signIn.signOffer(`${handle}\n${text}`))) return [];
  return text.split(' ').filter(Boolean);
}

/** Consent given: the request saved server-side, and the browser sent to the provider with `state`, a PKCE challenge and a `nonce`. */
async function toUpstream(
  context: HttpContext,
  signIn: SignInServer,
  request: AuthRequest,
  headers: Headers,
): Promise<Response> {
  // The provider's address first: an outage answers 503 before anything is stored.
  await signIn.upstream.authorizationEndpoint();
  const pending: Pending = { verifier: oauth.generateRandomCodeVerifier(), nonce: oauth.generateRandomNonce() };
  const codeChallenge = await oauth.calculatePKCECodeChallenge(pending.verifier);
  const upstream = await signIn.server.getOAuthApi(context.env).beginUpstream(request, { data: pending, headers });
  const location = await signIn.upstream.authorizationUrl({
    state: upstream.state,
    codeChallenge,
    nonce: pending.nonce,
  });
  upstream.headers.set('Location', location.href);
  return new Response(null, { status: 302, headers: upstream.headers });
}

async function finish(context: HttpContext, signIn: SignInServer): Promise<Response> {
  const oauthApi = signIn.server.getOAuthApi(context.env);
  // `state`, single use, bound to this browser: the approved request and our PKCE verifier and nonce.
  const { request, data, headers } = await oauthApi.finishUpstream<Pending>(context.request);
  const url = new URL(context.url);
  const redirect = (location: string) => {
    headers.set('Location', location);
    return new Response(null, { status: 302, headers });
  };
  if (url.searchParams.has('error'))
    return redirect(authorizationErrorRedirect(request, 'access_denied', 'the sign-in provider declined'));
  let signedIn: SignedIn;
  try {
    signedIn = await signIn.upstream.finish(url, data);
  } catch (error) {
    if (error instanceof UpstreamUnavailable) {
      console.warn(`sign-in: the provider did not answer the callback: ${error.message}`);
      return redirect(
        authorizationErrorRedirect(
          request,
          'temporarily_unavailable',
          'the sign-in provider did not answer; try again',
        ),
      );
    }
    // The message only: an error about a token answer may hold the answer, tokens included.
    console.warn(
      `sign-in: the provider's answer was refused: ${error instanceof Error ? error.message : 'unknown error'}`,
    );
    return redirect(authorizationErrorRedirect(request, 'access_denied', 'the sign-in with the provider failed'));
  }
  const { redirectTo } = await oauthApi.completeAuthorization({
    request,
    userId: signedIn.userId,
    metadata: {},
    scope: request.scope,
    props: signedIn.props,
  });
  return redirect(redirectTo);
}

/**
 * The library's node_modules/@cloudflare/workers-oauth-provider/docs/consent-page.md, "Errors: redirect or render?": a redirect to the client only
 * when the library validated it; the other expected failures a page here. Anything else is the
 * store failing (every value from the request that becomes a key is bounded first): a page that
 * says to try again, 503 with Retry-After, and an error in the log.
 */
function failure(error: unknown): Response {
  if (error instanceof AuthorizationError && error.redirectTo)
    return new Response(null, { status: 302, headers: { Location: error.redirectTo } });
  if (error instanceof AuthorizationError) return page(400, 'Sign-in cannot continue', error.description);
  if (error instanceof CimdFetchError)
    return page(400, 'Unknown app', 'This app could not be verified: its metadata document could not be read.');
  if (error instanceof UpstreamUnavailable) {
    console.warn(`sign-in: the provider is unavailable: ${error.message}`);
    const response = page(503, 'Sign-in unavailable', 'The sign-in provider did not answer. Try again in a moment.');
    response.headers.set('Retry-After', String(RETRY_AFTER_SECONDS));
    return response;
  }
  logStoreFailure('on a sign-in page', error);
  const response = page(503, 'Sign-in unavailable', 'This server could not reach its storage. Try again in a moment.');
  response.headers.set('Retry-After', String(RETRY_AFTER_SECONDS));
  return response;
}

/** An HTML page for the person in the browser, with the same headers as the consent page's. */
function page(status: number, title: string, message: string): Response {
  const nonce = oauth.generateRandomState();
  return new Response(errorPage(title, message, nonce), {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': consentPolicy(nonce, []).replace(/form-action [^;]*/, "form-action 'none'"),
      'X-Frame-Options': 'DENY',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** Where the Deny redirect goes, as CSP names a source: an origin, or a private-use scheme. */
function formTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin === 'null' ? url.protocol : url.origin;
}
