/**
 * What a fork customizes without editing the framework (issue 38, item 4): createWorker's `page`,
 * `steps` and `routes` (src/worker/), served in process through the whole pipeline.
 */
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../src/auth';
import type { AuthMode } from '../../../src/http/auth/auth';
import { defineTool, text } from '../../../src/mcp';
import {
  createWorker,
  homePage,
  route,
  type StepContext,
  type WorkerEnv,
  type WorkerOptions,
  type WorkerStep,
} from '../../../src/worker';
import { mcpHeaders, meta } from '../../support/mcp';

const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const env = {
  MCP_STATE_SECRET: 'fork options',
  REQUEST_LOGS: 'off',
  ALLOWED_ORIGINS: 'https://app.example.com',
} as unknown as WorkerEnv;
const definition = {
  info: { name: 'fork-options', version: '1.0.0' },
  tools: [defineTool({ name: 'ping', inputSchema: { type: 'object' }, handler: () => text('pong') })],
};

const serve = (options: WorkerOptions, request: Request, settings: Record<string, string> = {}) =>
  createWorker(definition, options).fetch(request, { ...env, ...settings } as unknown as WorkerEnv, ctx);

const html = (path = '/', method = 'GET') =>
  new Request(`http://localhost${path}`, { method, headers: { Accept: 'text/html' } });
const call = (headers: Record<string, string> = {}) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { ...mcpHeaders('tools/call', 'ping'), ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ping', arguments: {}, _meta: meta() },
    }),
  });

describe('page: the page at /', () => {
  it("is the framework's home page by default, and when named as homePage", async () => {
    for (const options of [{}, { page: homePage }]) {
      const response = await serve(options, html());
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('fork-options');
    }
  });

  it('false: no page, / answers 404 as any unknown path, whatever the method', async () => {
    const unknown = await serve({ page: false }, html('/nothing-here'));
    for (const method of ['GET', 'POST']) {
      const response = await serve({ page: false }, html('/', method));
      expect(response.status).toBe(unknown.status);
      expect(await response.text()).toBe(await serve({ page: false }, html('/nothing-here')).then((r) => r.text()));
    }
    expect(unknown.status).toBe(404);
  });

  it("the fork's own: called with the request, env and ctx; other methods still 405", async () => {
    const seen: unknown[] = [];
    const page = (request: Request, e: WorkerEnv, c: ExecutionContext) => {
      seen.push(request.url, (e as unknown as Record<string, string>).MCP_STATE_SECRET, c);
      return new Response('my page');
    };
    const response = await serve({ page }, html());
    expect(await response.text()).toBe('my page');
    expect(seen).toEqual(['http://localhost/', 'fork options', ctx]);
    expect((await serve({ page }, html('/', 'POST'))).status).toBe(405);
  });
});

describe("steps: the fork's own, in every MCP request", () => {
  const requireTenant = (request: Request) =>
    request.headers.get('X-Tenant') ? undefined : new Response('tenant required', { status: 403 });

  it('answers when a step returns a Response, and lets MCP answer when it returns nothing', async () => {
    const refused = await serve({ steps: [requireTenant] }, call());
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe('tenant required');
    const served = await serve({ steps: [requireTenant] }, call({ 'X-Tenant': 'acme' }));
    expect(served.status).toBe(200);
    expect(((await served.json()) as { result: { content: unknown } }).result.content).toEqual([
      { type: 'text', text: 'pong' },
    ]);
  });

  it("runs in order, after the framework's edge checks (origin, token) and only for the MCP endpoint", async () => {
    const ran: string[] = [];
    const steps = [() => void ran.push('first'), async () => void ran.push('second')];
    await serve({ steps }, call());
    expect(ran).toEqual(['first', 'second']);
    ran.length = 0;
    expect((await serve({ steps }, call({ Origin: 'https://elsewhere.example' }))).status).toBe(403);
    const bearerSettings = { AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'the-token' };
    expect(
      (await serve({ steps, auth: [bearer] }, call({ Authorization: 'Bearer wrong' }), bearerSettings)).status,
    ).toBe(401);
    await serve({ steps }, html());
    expect(ran).toEqual([]);
    expect(
      (await serve({ steps, auth: [bearer] }, call({ Authorization: 'Bearer the-token' }), bearerSettings)).status,
    ).toBe(200);
    expect(ran).toEqual(['first', 'second']);
  });
});

describe("steps: what the edge knows when a fork's step runs", () => {
  const bearerSettings = { AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'the-token' };

  it('hands each step the caller the auth mode verified, and the method and name the request declares', async () => {
    const seen: StepContext[] = [];
    const steps = [
      (_request: Request, _env: WorkerEnv, _ctx: ExecutionContext, context: StepContext) => void seen.push(context),
    ];
    const answer = await serve({ steps, auth: [bearer] }, call({ Authorization: 'Bearer the-token' }), bearerSettings);
    expect(answer.status).toBe(200);
    expect(seen).toEqual([
      { caller: { subject: 'bearer', kind: 'machine', scopes: [], claims: {} }, method: 'tools/call', name: 'ping' },
    ]);
  });

  it('says the caller is anonymous without auth, and decodes a Base64 name', async () => {
    const seen: StepContext[] = [];
    const steps: WorkerStep[] = [(_request, _env, _ctx, context) => void seen.push(context)];
    const encoded = `=?base64?${btoa('ping')}?=`;
    await serve({ steps }, call({ 'Mcp-Name': encoded }));
    expect(seen).toEqual([{ caller: undefined, method: 'tools/call', name: 'ping' }]);
  });

  it('lets a step refuse by what it knows: the caller and the method it declares', async () => {
    const onlyLists: WorkerStep = (_request, _env, _ctx, { caller, method }) =>
      caller && method?.endsWith('/list') ? undefined : new Response('lists only', { status: 403 });
    const refused = await serve(
      { steps: [onlyLists], auth: [bearer] },
      call({ Authorization: 'Bearer the-token' }),
      bearerSettings,
    );
    expect(refused.status).toBe(403);
    const list = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { ...mcpHeaders('tools/list'), Authorization: 'Bearer the-token' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta() } }),
    });
    expect((await serve({ steps: [onlyLists], auth: [bearer] }, list, bearerSettings)).status).toBe(200);
  });
});

describe("routes: the fork's own paths", () => {
  it('serves a route by its method and path, behind the same origin check', async () => {
    const routes = [route('POST', '/webhooks/tickets', async (request) => new Response(`got ${await request.text()}`))];
    const hook = (headers: Record<string, string> = {}) =>
      new Request('http://localhost/webhooks/tickets', { method: 'POST', body: 'ticket 7', headers });
    const response = await serve({ routes }, hook());
    expect(await response.text()).toBe('got ticket 7');
    expect((await serve({ routes }, hook({ Origin: 'https://elsewhere.example' }))).status).toBe(403);
    expect((await serve({ routes }, new Request('http://localhost/webhooks/tickets'))).status).toBe(404);
  });

  it.each([
    ['/mcp', 'POST'],
    ['/mcp/server-card', 'GET'],
    ['/.well-known/oauth-protected-resource', 'GET'],
    ['/.well-known/oauth-protected-resource/mcp', 'GET'],
    ['/.well-known/ai-catalog.json', 'GET'],
    ['/.well-known/mcp-registry-auth', 'GET'],
    ['/', 'GET'],
  ] as const)('refuses at load a route at %s, which the framework serves, naming the path', (path, method) => {
    expect(() => createWorker(definition, { routes: [route(method, path, () => new Response())] })).toThrow(
      `route ${method} ${path}: the framework serves ${path}`,
    );
  });

  it.each([
    ['/mcp/', '/mcp'],
    ['/mcp//', '/mcp'],
    ['//mcp', '/mcp'],
    ['/.well-known/oauth-protected-resource/', '/.well-known/oauth-protected-resource'],
    ['/.well-known/ai-catalog.json/', '/.well-known/ai-catalog.json'],
    ['/.well-known/mcp-registry-auth//', '/.well-known/mcp-registry-auth'],
    ['/mcp/server-card/', '/mcp/server-card'],
  ])('refuses at load a route at %s, which the router answers as %s, naming both', (path, served) => {
    expect(() => createWorker(definition, { routes: [route('POST', path, () => new Response())] })).toThrow(
      `route POST ${path}: the framework serves ${served} (the router reads ${path} as ${served})`,
    );
  });

  /**
   * A mode with the sign-in mode's routes (src/signin/signInServer.ts; the sign-in mode itself
   * loads only in workerd): a mode's routes are framework paths too.
   */
  const withSignInRoutes: AuthMode = {
    ...bearer,
    routes: [
      '/authorize',
      '/oauth/callback',
      '/oauth/token',
      '/oauth/register',
      '/.well-known/oauth-authorization-server',
    ].map((path) => ({ path, serve: () => new Response() })),
  };

  it.each([
    ['/authorize', '/authorize'],
    ['/authorize/', '/authorize'],
    ['/oauth/token//', '/oauth/token'],
    ['/oauth/register/', '/oauth/register'],
    ['/oauth/callback/', '/oauth/callback'],
    ['/.well-known/oauth-authorization-server/', '/.well-known/oauth-authorization-server'],
  ])("refuses at load a route at %s, a spelling of the sign-in mode's %s", (path, served) => {
    expect(() =>
      createWorker(definition, { auth: [withSignInRoutes], routes: [route('GET', path, () => new Response())] }),
    ).toThrow(`route GET ${path}: the framework serves ${served}`);
  });

  it('serves a route at a path the router tells apart from the framework’s: another case, a longer name', async () => {
    const routes = ['/MCP', '/mcp-hooks', '/authorize.html'].map((path) =>
      route('POST', path, () => new Response(`mine at ${path}`)),
    );
    for (const path of ['/MCP', '/mcp-hooks', '/authorize.html']) {
      const response = await serve({ routes }, new Request(`http://localhost${path}`, { method: 'POST' }));
      expect(await response.text()).toBe(`mine at ${path}`);
    }
  });

  it('lets a route take / when the page is off', async () => {
    const routes = [route('GET', '/', () => new Response('mine'))];
    expect(await (await serve({ page: false, routes }, html())).text()).toBe('mine');
  });
});
