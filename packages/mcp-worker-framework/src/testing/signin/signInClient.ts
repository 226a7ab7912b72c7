/**
 * The client side of the sign-in flow, for tests: an in-memory `OAuthClientProvider` for the
 * official client (@modelcontextprotocol/client), which registers itself (DCR), keeps its tokens
 * and hands over the authorization URL instead of opening a browser; and a "browser" made of
 * plain `fetch` with a cookie jar, which follows the consent page, the provider and the callback
 * one redirect at a time, recording each request with its status.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';

/** The client's redirect URI: nothing listens there, the browser stops when it is sent to it. */
export const CLIENT_REDIRECT = 'http://127.0.0.1:9/callback';

type Stored<K extends keyof OAuthClientProvider> =
  NonNullable<OAuthClientProvider[K]> extends (...args: infer A) => unknown ? A[0] : never;

export class MemoryOAuthClient implements OAuthClientProvider {
  client: Stored<'saveClientInformation'> | undefined;
  saved: Stored<'saveTokens'> | undefined;
  verifier = '';
  discovery: Stored<'saveDiscoveryState'> | undefined;
  /** The last authorization URL the client wanted the user to open. */
  authorizationUrl: URL | undefined;
  /** How many times the client sent the user to authorize. */
  authorizations = 0;

  get redirectUrl() {
    return CLIENT_REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'Test <Client> & "Co"',
      redirect_uris: [CLIENT_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: NonNullable<Stored<'saveClientInformation'>>) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<Stored<'saveTokens'>>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    this.authorizations++;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: NonNullable<Stored<'saveDiscoveryState'>>) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}

/** One request of the flow: who made it, what, and its answer's status. */
export interface Step {
  by: string;
  method: string;
  url: string;
  status: number;
}

/** `fetch` with a cookie jar, redirects taken one at a time. */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** `steps` may be a log shared with the client's requests. */
  constructor(readonly steps: Step[] = []) {}

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string | string[]>; origin?: string } = {},
  ): Promise<Response> {
    const headers = new Headers();
    if (this.cookies.size > 0)
      headers.set('Cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    let body: string | undefined;
    if (init.form) {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(init.form)) for (const one of [value].flat()) form.append(name, one);
      body = form.toString();
      headers.set('Content-Type', 'application/x-www-form-urlencoded');
    }
    if (init.origin) headers.set('Origin', init.origin);
    const method = init.method ?? (body ? 'POST' : 'GET');
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    this.steps.push({ by: 'browser', method, url: url.replace(/\?.*/, '?…'), status: response.status });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.trim());
    }
    return response;
  }

  /** Follows `Location` while it stays off `stopAt`; the answer that ends the chain, and where it pointed. */
  async follow(response: Response, stopAt: string): Promise<{ response: Response; location: string | undefined }> {
    let current = response;
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('Location');
      if (current.status < 300 || current.status >= 400 || !location) return { response: current, location: undefined };
      if (location.startsWith(stopAt)) return { response: current, location };
      current = await this.request(location);
    }
    throw new Error('more than 10 redirects');
  }
}

/** A `fetch` for the official client's transport that logs each request, as `client`. */
export const loggingFetch =
  (log: Step[]): typeof fetch =>
  async (input, init) => {
    const response = await fetch(input, init);
    const url = String(input instanceof Request ? input.url : input).replace(/\?.*/, '?…');
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const mcpMethod = new Headers(init?.headers).get('Mcp-Method');
    log.push({ by: 'client', method, url: mcpMethod ? `${url} (${mcpMethod})` : url, status: response.status });
    return response;
  };

/** The log as lines: `client  POST <worker>/mcp (server/discover) → 401`. */
export const flowLines = (log: Step[], origins: Record<string, string>) =>
  log.map(({ by, method, url, status }) => {
    let shown = url;
    for (const [name, origin] of Object.entries(origins)) shown = shown.replace(origin, name);
    return `${by.padEnd(7)} ${method} ${shown} → ${status}`;
  });

/** The consent page's handle. */
export function consentHandle(html: string): string {
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error(`no consent form in: ${html.slice(0, 300)}`);
  return handle;
}

/**
 * A client of the authorization server by hand, for the security cases the official client never
 * makes: registration (RFC 7591), a PKCE pair, the authorization URL, the token requests.
 */
export class HandClient {
  clientId = '';
  constructor(readonly origin: string) {}

  async register(redirectUris = [CLIENT_REDIRECT]): Promise<this> {
    const response = await fetch(`${this.origin}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Hand client',
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    });
    if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`);
    this.clientId = ((await response.json()) as { client_id: string }).client_id;
    return this;
  }

  /** The authorization URL; `params` override or (as `null`) remove a parameter. */
  authorizationUrl(challenge: string, params: Record<string, string | null> = {}): string {
    const url = new URL(`${this.origin}/authorize`);
    const all: Record<string, string | null> = {
      response_type: 'code',
      client_id: this.clientId,
      redirect_uri: CLIENT_REDIRECT,
      state: 'client-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${this.origin}/mcp`,
      ...params,
    };
    for (const [name, value] of Object.entries(all)) if (value !== null) url.searchParams.set(name, value);
    return url.href;
  }

  token(params: Record<string, string>): Promise<Response> {
    return fetch(`${this.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: this.clientId, ...params }).toString(),
    });
  }
}

/** A PKCE pair (RFC 7636, S256). */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const challenge = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))).toString(
    'base64url',
  );
  return { verifier, challenge };
}
