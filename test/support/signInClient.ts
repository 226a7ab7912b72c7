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

type Stored<K extends keyof OAuthClientProvider> = NonNullable<OAuthClientProvider[K]> extends (...args: infer A) => unknown ? A[0] : never;

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
    return { client_name: 'Test <Client> & "Co"', redirect_uris: [CLIENT_REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
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

/** One request of the flow as the browser made it. */
export interface Step {
  method: string;
  url: string;
  status: number;
}

/** `fetch` with a cookie jar, redirects taken one at a time. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly steps: Step[] = [];

  async request(url: string, init: { method?: string; form?: Record<string, string | string[]>; origin?: string } = {}): Promise<Response> {
    const headers = new Headers();
    if (this.cookies.size > 0) headers.set('Cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
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
    this.steps.push({ method, url, status: response.status });
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

/** The consent page's handle. */
export function consentHandle(html: string): string {
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error(`no consent form in: ${html.slice(0, 300)}`);
  return handle;
}
