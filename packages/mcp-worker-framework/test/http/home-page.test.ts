/**
 * The page for people at `/` (docs/discovery.md, src/http/discovery/homePage.ts): what it says comes from
 * the server under test (its discover result and its tool list), never from the examples; one
 * self-contained document under a CSP that allows only its own style and script; cached with an
 * ETag. What a browser makes of it is in test/browser/home-page.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMode } from '../../src/http/auth/auth';
import { createRouter } from '../../src/http/router';
import { apps, defineAppView } from '../../src/apps';
import { access, bearer as bearerMode, jwt } from '../../src/auth';
import { createServer, definePrompt, defineResource, defineResourceTemplate, defineTool, text } from '../../src/mcp';
import type { Extension } from '../../src/mcp/internal';
import { testClient, type WorkerInWorkerd } from '../../src/testing';
import { startEdge } from './edge';
import type { WorkerEnv } from '../../src/env';

let worker: WorkerInWorkerd;
let bearer: WorkerInWorkerd;
beforeAll(async () => {
  [worker, bearer] = await Promise.all([
    startEdge(),
    startEdge({ AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'page-token' }),
  ]);
}, 120_000);
afterAll(() => Promise.all([worker?.dispose(), bearer?.dispose()]));

/** As the page writes text: HTML's five special characters as entities. */
const escaped = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
const html = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const page = (base: WorkerInWorkerd, headers: Record<string, string> = html) => fetch(`${base.url}/`, { headers });

describe('GET / from a browser', () => {
  it('names the server, its endpoint and every tool it lists, from the server itself', async () => {
    const response = await page(worker);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const body = await response.text();
    const client = testClient(worker);
    const info = (await client.discover()).result._meta?.['io.modelcontextprotocol/serverInfo'];
    const card = (await (await fetch(`${worker.url}/mcp/server-card`)).json()) as { description: string };
    expect(body).toContain(`<h1>${escaped(info?.title ?? info?.name ?? '')}</h1>`);
    expect(body).toContain(escaped(card.description));
    expect(body).toContain(`<code id="endpoint">${worker.url}/mcp</code>`);
    const { tools } = (await client.listTools()).result;
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(body).toContain(`<code>${tool.name}</code>`);
    expect(body).toContain('No sign-in');
  });

  it('loads nothing from anywhere: its CSP allows only its own inline style and script, by hash', async () => {
    const response = await page(worker);
    const body = await response.text();
    const policy = response.headers.get('Content-Security-Policy')!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const [, style] = body.match(/<style>([\s\S]*?)<\/style>/)!;
    const [, script] = body.match(/<script>([\s\S]*?)<\/script>/)!;
    expect(policy).toContain(`default-src 'none'`);
    expect(policy).toContain(`style-src ${hash(style!)};`);
    expect(policy).toContain(`script-src ${hash(script!)};`);
    expect(policy).toContain(`frame-ancestors 'none'`);
    expect(response.headers.get('X-Frame-Options')).toBe('DENY');
    // No attribute that fetches: no src=, no stylesheet link, no absolute URL but the server's own.
    expect(body).not.toMatch(/\ssrc=|<link\b|@import|url\(/);
    for (const [url] of body.matchAll(/https?:\/\/[^\s"'<>]+/g)) expect(url.startsWith(worker.url)).toBe(true);
  });

  it('is cached publicly and revalidated by its ETag (304)', async () => {
    const first = await page(worker);
    const etag = first.headers.get('ETag')!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=3600');
    expect(first.headers.get('Vary')).toBe('Accept');
    const again = await page(worker, { ...html, 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('says a token is needed when AUTH_MODE = "bearer", and never shows it', async () => {
    const body = await (await page(bearer)).text();
    expect(body).toContain('Needs a token');
    expect(body).not.toContain('page-token');
  });
});

describe('GET / from a program', () => {
  it('points at the endpoint and the Server Card, in JSON', async () => {
    const response = await page(worker, { Accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(await response.json()).toEqual({ mcp: `${worker.url}/mcp`, serverCard: `${worker.url}/mcp/server-card` });
  });

  it('answers another method 405', async () => {
    const response = await fetch(`${worker.url}/`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('GET');
  });
});

describe('the page of any server definition', () => {
  const env = { MCP_STATE_SECRET: 'x' } as unknown as WorkerEnv;
  const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
  const hostile = '<script>alert("x")</script> & \'quoted\'';
  const router = createRouter(
    createServer({
      info: { name: 'renamed', title: hostile, version: '9.9.9' },
      card: { name: 'org.example/renamed', description: hostile },
      tools: [
        defineTool({
          name: 'only_tool',
          title: hostile,
          description: hostile,
          inputSchema: { type: 'object' },
          requiredScopes: ['files:read'],
          handler: () => text(''),
        }),
      ],
    }),
  );
  const body = async () =>
    (await router.fetch(new Request('https://renamed.example/', { headers: html }), env, ctx)).text();

  it('escapes every string of the definition', async () => {
    const text = await body();
    expect(text).not.toContain('<script>alert');
    expect(text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;');
    expect(text.match(/<script>/g)).toHaveLength(1);
  });

  it('leaves out a tool only a view may call (MCP Apps visibility ["app"]): people connect models, not views', async () => {
    const withAppTool = createRouter(
      createServer(
        {
          info: { name: 'apps', version: '1' },
          resources: [
            defineAppView({
              uri: 'ui://page-test/view',
              name: 'view',
              html: '<!doctype html><html><head><title>v</title></head><body></body></html>',
            }),
          ],
          tools: [
            defineTool({
              name: 'for_models',
              description: 'x',
              inputSchema: { type: 'object' },
              handler: () => text(''),
            }),
            defineTool({
              name: 'for_views_only',
              description: 'x',
              inputSchema: { type: 'object' },
              ui: { resourceUri: 'ui://page-test/view', visibility: ['app'] },
              handler: () => text(''),
            }),
          ],
        },
        [apps()],
      ),
    );
    const text_ = await (
      await withAppTool.fetch(new Request('https://apps.example/', { headers: html }), env, ctx)
    ).text();
    expect(text_).toContain('<code>for_models</code>');
    expect(text_).not.toContain('for_views_only');
  });

  it('follows the definition: its name, version, tools and the scopes they need', async () => {
    const text = await body();
    expect(text).toContain('version 9.9.9');
    expect(text).toContain('<code>only_tool</code>');
    expect(text).toContain('needs files:read');
    expect(text).toContain('<code id="endpoint">https://renamed.example/mcp</code>');
  });

  it('lists its resources, templates and prompts, leaving out what visibleTo hides from a visitor', async () => {
    const hidden = { visibleTo: () => false };
    const served = createRouter(
      createServer({
        info: { name: 'library', version: '1' },
        resources: [
          defineResource({
            uri: 'doc://catalogue',
            name: 'catalogue',
            description: 'Every book.',
            read: () => ({ contents: [] }),
          }),
          defineResource({ uri: 'doc://staff-only', name: 'staff-only', ...hidden, read: () => ({ contents: [] }) }),
        ],
        resourceTemplates: [
          defineResourceTemplate({
            uriTemplate: 'book://{isbn}',
            name: 'book',
            title: 'A book',
            read: () => ({ contents: [] }),
          }),
        ],
        prompts: [definePrompt({ name: 'recommend', description: 'Asks for a book.', get: () => ({ messages: [] }) })],
      }),
    );
    const text_ = await (
      await served.fetch(new Request('https://library.example/', { headers: html }), env, ctx)
    ).text();
    for (const shown of [
      '<code>catalogue</code>',
      'doc://catalogue',
      'Every book.',
      '<code>book</code>',
      'book://{isbn}',
      'A book',
      '<code>recommend</code>',
    ])
      expect(text_).toContain(shown);
    expect(text_).toMatch(/<h2 id="resources">Resources <span class="count">2<\/span>/);
    expect(text_).toMatch(/<h2 id="prompts">Prompts <span class="count">1<\/span>/);
    expect(text_).not.toContain('staff-only');
  });

  it('shows the header its auth mode needs in every way to connect, with a placeholder for the token', async () => {
    const guarded = createRouter(createServer({ info: { name: 'guarded', version: '1' } }), [bearerMode]);
    const bearerEnv = { ...env, AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'never-shown' } as WorkerEnv;
    const text_ = await (
      await guarded.fetch(new Request('https://guarded.example/', { headers: html }), bearerEnv, ctx)
    ).text();
    const header = escaped('"Authorization: Bearer <token>"');
    expect(text_).toContain(
      `claude mcp add --transport http guarded https://guarded.example/mcp --header ${header}</pre>`,
    );
    expect(text_).toContain(escaped('"headers":{"Authorization":"Bearer <token>"}'));
    expect(text_).toContain(
      escaped('"args":["mcp-remote","https://guarded.example/mcp","--header","Authorization: Bearer <token>"]'),
    );
    expect(text_).toContain(`--transport http --header ${header} --method tools/list`);
    expect(text_).not.toContain('never-shown');
    // A program reads them in the JSON pointer (`npm run registry` declares them in server.json).
    const pointer = await guarded.fetch(
      new Request('https://guarded.example/', { headers: { Accept: 'application/json' } }),
      bearerEnv,
      ctx,
    );
    expect(await pointer.json()).toEqual({
      mcp: 'https://guarded.example/mcp',
      headers: { Authorization: 'Bearer <token>' },
    });
    // Without auth, no header anywhere.
    expect(await body()).not.toContain('headers');
  });

  it('says how to connect as the mode listed says it: its headers, its sign-in, or that the client is told', async () => {
    const pageOf = async (modes: Parameters<typeof createRouter>[1], vars: Record<string, string>) => {
      const router = createRouter(createServer({ info: { name: 'moded', version: '1' } }), modes);
      const request = new Request('https://moded.example/', { headers: html });
      return (await router.fetch(request, { ...env, ...vars } as WorkerEnv, ctx)).text();
    };
    const accessPage = await pageOf([access], {
      ACCESS_TEAM_DOMAIN: 'acme.cloudflareaccess.com',
      ACCESS_AUD: 'a'.repeat(64),
    });
    expect(accessPage).toContain('Sign-in with Cloudflare Access');
    expect(accessPage).toContain(
      `--header ${escaped('"CF-Access-Client-Id: <client id>"')} --header ${escaped('"CF-Access-Client-Secret: <client secret>"')}`,
    );
    const jwtPage = await pageOf([jwt], {
      AUTH_ISSUER: 'https://issuer.example',
      AUTH_RESOURCE: 'https://moded.example/mcp',
    });
    expect(jwtPage).toContain(
      'Sign-in with OAuth: your client reads <a href="/.well-known/oauth-protected-resource/mcp">https://moded.example/.well-known/oauth-protected-resource/mcp</a>',
    );
    expect(jwtPage).not.toContain('--header');
    // A mode that says nothing of itself: the client learns how when it connects.
    const quiet = authMode({
      name: 'quiet',
      settings: {},
      parse: () => ({ mode: 'quiet', scopesSupported: [], authorizationServers: [] }),
      verify: () => undefined,
    });
    expect(await pageOf([quiet], {})).toContain('Sign-in needed: your client is told how when it connects.');
  });

  it("gives an extension's own items a section of their own, from the extension's page", async () => {
    const shelf: Extension = {
      id: 'com.example/shelf',
      page: {
        title: 'Shelves',
        about: 'Where books are kept.',
        items: [
          { name: 'fiction', description: 'Novels.' },
          { name: 'archive', visibleTo: () => false },
        ],
      },
      install: () => ({}),
    };
    const withShelf = createRouter(createServer({ info: { name: 'shelved', version: '1' } }, [shelf]));
    const text_ = await (
      await withShelf.fetch(new Request('https://shelved.example/', { headers: html }), env, ctx)
    ).text();
    expect(text_).toMatch(
      /<h2 id="shelves">Shelves <span class="count">1<\/span><\/h2>\n<p>Where books are kept\.<\/p>/,
    );
    expect(text_).toContain('<code>fiction</code><p>Novels.</p>');
    expect(text_).not.toContain('archive');
  });
});
