/**
 * MCP Apps in the protocol core (spec extensions/apps): a server that lists a view advertises the
 * extension and lists its tools with `_meta.ui`; a view read carries the MIME type, `_meta.ui` and
 * long public caching hints; an author's mistake fails at load with what to write instead.
 */
import { describe, expect, it } from 'vitest';
import { APPS_EXTENSION, apps, defineAppView, VIEW_CACHE, VIEW_MIME_TYPE } from '../../../src/apps';
import { createServer } from '../../../src/mcp/createServer';
import { defineResource, defineTool, text, type ToolDefinition } from '../../../src/mcp/define';
import { RawJson } from '../../../src/mcp/json';
import { declares } from '../../../src/mcp/meta';
import { mcpRequest } from '../../support/request';

const HTML = '<!doctype html><html><body><p>A view</p></body></html>';
const view = defineAppView({
  uri: 'ui://fixture/view',
  name: 'fixture-view',
  html: HTML,
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
  permissions: { clipboardWrite: {} },
  prefersBorder: false,
});
const shown = defineTool({
  name: 'shown',
  inputSchema: { type: 'object' },
  ui: { resourceUri: 'ui://fixture/view' },
  handler: () => ({ ...text('shown as text'), structuredContent: { n: 1 } }),
});
const appOnly = defineTool({
  name: 'app_only',
  inputSchema: { type: 'object' },
  _meta: { 'example.com/kept': true },
  ui: { resourceUri: 'ui://fixture/view', visibility: ['app'] },
  handler: () => text('refreshed'),
});
const plainTool = defineTool({ name: 'plain', inputSchema: { type: 'object' }, handler: () => text('plain') });
const info = { name: 'apps', version: '1.0.0' };
const alsoHandmade = defineResource({
  uri: 'ui://x/h',
  name: 'h',
  mimeType: VIEW_MIME_TYPE,
  read: () => ({ contents: [] }),
});
const withView = createServer({ info, tools: [shown, appOnly, plainTool], resources: [view] }, [apps()]);
const withoutView = createServer({ info, tools: [plainTool] });

const request = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0' as const,
  id: 1,
  method,
  params,
});
const json = (result: unknown) => (result instanceof RawJson ? JSON.parse(result.json) : result);
const answer = async (server: typeof withView, method: string, params?: Record<string, unknown>) =>
  json((await server.handle(mcpRequest(request(method, params)))).result);

describe('a server with a view', () => {
  it('advertises io.modelcontextprotocol/ui in discover, and a server without one does not', async () => {
    expect((await answer(withView, 'server/discover')).capabilities.extensions).toEqual({ [APPS_EXTENSION]: {} });
    expect((await answer(withoutView, 'server/discover')).capabilities).not.toHaveProperty('extensions');
  });

  it('advertises nothing with apps() on but no tool with a view (a fork that deleted its last view)', async () => {
    const appsNoView = createServer({ info, tools: [plainTool], resources: [view] }, [apps()]);
    expect((await answer(appsNoView, 'server/discover')).capabilities).not.toHaveProperty('extensions');
    expect(appsNoView.capabilities).not.toHaveProperty('extensions');
    const legacy = await appsNoView.handle(
      mcpRequest(request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info }), {
        era: 'legacy',
        protocolVersion: '2025-11-25',
        clientCapabilities: {},
      }),
    );
    expect(json(legacy.result).capabilities).not.toHaveProperty('extensions');
  });

  it('lists each linked tool with _meta.ui, keeps its own _meta, and adds no deprecated flat key', async () => {
    const { tools } = await answer(withView, 'tools/list');
    const byName = Object.fromEntries(tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.shown._meta).toEqual({ ui: { resourceUri: 'ui://fixture/view' } });
    expect(byName.app_only._meta).toEqual({
      'example.com/kept': true,
      ui: { resourceUri: 'ui://fixture/view', visibility: ['app'] },
    });
    expect(byName.plain).not.toHaveProperty('_meta');
    expect(Object.keys(byName.shown).sort()).toEqual(['_meta', 'inputSchema', 'name']);
  });

  it('lists the view with its MIME type and _meta.ui', async () => {
    const { resources } = await answer(withView, 'resources/list');
    expect(resources).toEqual([
      {
        uri: 'ui://fixture/view',
        name: 'fixture-view',
        mimeType: VIEW_MIME_TYPE,
        _meta: {
          ui: {
            csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
            permissions: { clipboardWrite: {} },
            prefersBorder: false,
          },
        },
      },
    ]);
  });

  it('reads the view: its document, MIME type and _meta.ui, with long public caching hints', async () => {
    const reply = await withView.handle(mcpRequest(request('resources/read', { uri: 'ui://fixture/view' })));
    expect('cache' in reply && reply.cache).toEqual(VIEW_CACHE);
    expect(VIEW_CACHE).toEqual({ ttlMs: 86_400_000, cacheScope: 'public' });
    const result = json(reply.result);
    expect(result).toMatchObject({ ttlMs: VIEW_CACHE.ttlMs, cacheScope: 'public' });
    expect(result.contents).toEqual([
      {
        uri: 'ui://fixture/view',
        mimeType: VIEW_MIME_TYPE,
        text: HTML,
        _meta: { ui: expect.objectContaining({ prefersBorder: false }) },
      },
    ]);
  });

  it('keeps the view public for an authenticated caller: it holds no secrets', async () => {
    const reply = await withView.handle(
      mcpRequest(request('resources/read', { uri: 'ui://fixture/view' }), undefined, {
        caller: { subject: 'ada', kind: 'person', scopes: [], claims: {} },
      }),
    );
    expect('cache' in reply && reply.cache?.cacheScope).toBe('public');
  });

  it('answers a UI tool with its text for a client without the extension', async () => {
    const result = await answer(withView, 'tools/call', { name: 'shown', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'shown as text' }]);
    expect(result.structuredContent).toEqual({ n: 1 });
  });
});

describe('a view read from static assets', () => {
  it('answers -32603 naming ASSETS when the Worker has no such binding', async () => {
    const paged = defineAppView({ uri: 'ui://fixture/paged', name: 'paged', page: 'paged' });
    const server = createServer({ info, resources: [paged] });
    const reply = await server.handle(mcpRequest(request('resources/read', { uri: 'ui://fixture/paged' })));
    expect(reply.error).toMatchObject({ code: -32603, data: { setting: 'ASSETS' } });
    expect(reply.error?.message).toMatch(/ASSETS is not bound: a view is read from static assets/);
  });
});

describe('can() and extensions', () => {
  it('sees an extension the client declared, and ignores a malformed entry', () => {
    const feature = `extensions.${APPS_EXTENSION}` as const;
    expect(declares({ extensions: { [APPS_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } }, feature)).toBe(true);
    expect(declares({ extensions: { [APPS_EXTENSION]: true } }, feature)).toBe(false);
    expect(declares({ extensions: [APPS_EXTENSION] }, feature)).toBe(false);
    expect(declares({}, feature)).toBe(false);
  });
});

describe('mistakes fail at load', () => {
  const viewWith = (extra: object) => () => defineAppView({ uri: 'ui://x/v', name: 'v', html: HTML, ...extra });
  const serverWith =
    (tool: ToolDefinition, resources = [view]) =>
    () =>
      createServer({ info, tools: [tool], resources }, [apps()]);
  const linked = (ui: object) =>
    defineTool({ name: 'linked', inputSchema: { type: 'object' }, ui: ui as never, handler: () => text('') });

  it.each([
    ['a URI not under ui://', { uri: 'https://x/v' }, /view "https:\/\/x\/v": the URI must start with ui:\/\//],
    ['no document', { html: 'just text' }, /html must be an HTML5 document, starting with <!doctype html>/],
    ['both a page and html', { page: 'x' }, /give either page \(a folder of views\/\) or html/],
    ['a page name with a path', { html: undefined, page: '../x' }, /page "..\/x" must name a folder of views\//],
    [
      'a CSP entry with a path',
      { csp: { connectDomains: ['https://api.example.com/v1'] } },
      /csp.connectDomains entry "https:\/\/api.example.com\/v1" must be an origin alone/,
    ],
    [
      'a CSP entry that would split the header',
      { csp: { resourceDomains: ["https://a.com; script-src 'unsafe-eval'"] } },
      /csp.resourceDomains entry .* (is not an origin|must be an origin alone)/,
    ],
    [
      'a CSP entry with another scheme',
      { csp: { frameDomains: ['javascript://x'] } },
      /csp.frameDomains entry "javascript:\/\/x" must use https, http, wss or ws/,
    ],
    [
      'a misspelt CSP field',
      { csp: { connectDomain: ['https://a.com'] } },
      /unknown csp field "connectDomain"; the spec defines connectDomains/,
    ],
    ['an unknown permission', { permissions: { usb: {} } }, /unknown permission "usb"/],
    [
      'a misspelt field',
      { prefersBorders: true },
      /unknown field "prefersBorders"; a view takes uri, name, .* _meta.ui fields csp, permissions, domain, prefersBorder/,
    ],
    ['a permission that is not {}', { permissions: { camera: true } }, /permissions.camera must be \{\}/],
    ['prefersBorder not a boolean', { prefersBorder: 'yes' }, /prefersBorder must be true or false/],
  ])('refuses a view with %s', (_, extra, message) => {
    expect(viewWith(extra)).toThrow(message);
  });

  it('refuses a tool whose resourceUri names no view, naming the views there are', () => {
    expect(serverWith(linked({ resourceUri: 'ui://fixture/other' }))).toThrow(
      /tool "linked": ui.resourceUri "ui:\/\/fixture\/other" names no view of this server \(views listed in resources: ui:\/\/fixture\/view\)/,
    );
    expect(serverWith(linked({ resourceUri: 'ui://fixture/view' }), [])).toThrow(
      /names no view of this server \(views listed in resources: none\)/,
    );
  });

  it('refuses a visibility that is empty, repeated or unknown', () => {
    for (const visibility of [[], ['app', 'app'], ['user']]) {
      expect(serverWith(linked({ resourceUri: 'ui://fixture/view', visibility }))).toThrow(
        /ui.visibility must list "model", "app" or both/,
      );
    }
  });

  it('refuses the deprecated flat _meta key', () => {
    const flat = defineTool({
      name: 'flat',
      inputSchema: { type: 'object' },
      _meta: { 'ui/resourceUri': 'ui://fixture/view' },
      ui: { resourceUri: 'ui://fixture/view' },
      handler: () => text(''),
    });
    expect(serverWith(flat)).toThrow(/_meta\["ui\/resourceUri"\] is deprecated/);
  });

  it('refuses a view made by hand, which defineAppView has not checked', () => {
    const handmade = defineResource({
      uri: 'ui://x/v',
      name: 'v',
      mimeType: 'text/html',
      read: () => ({ contents: [] }),
    });
    expect(() => createServer({ info, resources: [handmade] }, [apps()])).toThrow(
      /resource "ui:\/\/x\/v": a view \(ui:\/\/, text\/html;profile=mcp-app\) is made with defineAppView/,
    );
    expect(() => createServer({ info, resources: [alsoHandmade] }, [apps()])).toThrow(
      /resource "ui:\/\/x\/h": a view .* is made with defineAppView/,
    );
  });
});
