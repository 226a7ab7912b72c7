/**
 * The page for people at `GET /` (docs/discovery.md): what the server is, its endpoint with a
 * copy button, how to connect from the common clients (with the headers its auth mode needs,
 * shown with placeholders), whether sign-in is needed, and its tools, resources, templates and
 * prompts, all from the same compiled definition as `server/discover`, so a fork's appear without
 * editing anything here. One self-contained document: no external assets, a Content Security
 * Policy that allows only its own inline style and script (by hash), readable without
 * JavaScript (the copy button is the only thing the script adds). An extension lists what it
 * serves in a section of its own (`page` of an extension: Skills' skills). Made once per isolate for each
 * origin the Worker is reached at, with an `ETag`. A client that does not ask for HTML gets a
 * small JSON pointer to the endpoint, the Server Card and the headers to send instead.
 */
import { type CallerRules, type CompiledServer, visibleTo } from '../../mcp/internal.js';
import { SERVER_CARD_PATH } from './discovery.js';
import { METADATA_PATH } from '../auth/challenges.js';
import { answerDocument, publicDocument } from './publicDocument.js';
import type { PageContext } from '../route.js';
import type { Settings } from '../settings/settings.js';
import { originOf } from '../transport/url.js';

export const HOME_PATH = '/';

/** The default `page` of createWorker; a fork's own page may call it, passing on what it was given. */
export async function homePage(
  request: Request,
  _env: unknown,
  _ctx: unknown,
  { server, settings }: PageContext,
): Promise<Response> {
  const origin = originOf(request.url);
  if (!(request.headers.get('Accept') ?? '').includes('text/html')) {
    // The headers a client must send, as the page shows them: what `npm run registry` declares in server.json.
    const headers = settings.authMode?.connect?.headers;
    const pointer = publicDocument(`pointer ${settings.auth.mode} ${origin}`, () =>
      JSON.stringify({
        mcp: `${origin}/mcp`,
        ...(server.compiled.card ? { serverCard: `${origin}${SERVER_CARD_PATH}` } : {}),
        ...(headers ? { headers } : {}),
      }),
    );
    return answerDocument(request, pointer, 'application/json', {
      'Cache-Control': 'public, max-age=3600',
      Vary: 'Accept',
    });
  }
  const policy = await contentSecurityPolicy();
  const page = publicDocument(`page ${settings.auth.mode} ${origin}`, () => pageOf(server, origin, settings));
  return answerDocument(request, page, 'text/html; charset=utf-8', {
    'Cache-Control': 'public, max-age=3600',
    Vary: 'Accept',
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  });
}

/** Nothing but this page's own style and script, named by their SHA-256 (CSP Level 3 hash sources). */
let policy: Promise<string> | undefined;
const contentSecurityPolicy = () =>
  (policy ??= Promise.all([sha256(STYLE), sha256(SCRIPT)]).then(
    ([style, script]) =>
      `default-src 'none'; style-src '${style}'; script-src '${script}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  ));

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

/** An item as the page shows it: its name, a title and a detail (a URI) beside it, what it does, the scopes it needs. */
interface Shown {
  readonly name: string;
  readonly title?: string;
  readonly detail?: string;
  readonly description?: string;
  readonly requiredScopes?: readonly string[];
}

/** What an anonymous visitor may know of: an item its visibleTo rule hides from them is left out. */
const publicly = <Item extends CallerRules>(items: Iterable<Item>) =>
  [...items].filter((item) => visibleTo(item, undefined));

function pageOf(server: CompiledServer, origin: string, settings: Settings): string {
  const { info, card, instructions } = server.compiled;
  const endpoint = `${origin}/mcp`;
  const name = info.title ?? info.name;
  const about = card?.description ?? instructions;
  const key = (card?.name ?? info.name)
    .split('/')
    .pop()!
    .replace(/[^a-zA-Z0-9_-]/g, '-');
  // A public page leaves out what only a view calls, too (spec extensions/apps, visibility ["app"]).
  const tools: Shown[] = publicly([...server.compiled.tools.values()].map(({ definition }) => definition)).filter(
    (definition) => definition.ui?.visibility?.includes('model') ?? true,
  );
  // The definition's own resources and templates; an extension's are in its own section (below).
  const extensions = new Set(server.compiled.extensions.flatMap((e) => e.resources ?? []));
  const resources = publicly([
    ...server.compiled.listedResources
      .filter((resource) => !extensions.has(resource))
      .map((resource) => ({ ...resource, detail: resource.uri })),
    ...server.compiled.templates.map(({ definition }) => ({ ...definition, detail: definition.uriTemplate })),
  ]);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(name)} · MCP server</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>
<p class="kind">Model Context Protocol server · version ${escapeHtml(info.version)}</p>
<h1>${escapeHtml(name)}</h1>
${about ? `<p class="about">${escapeHtml(about)}</p>` : ''}
</header>
<section aria-labelledby="connect">
<h2 id="connect">Connect</h2>
<div class="endpoint"><code id="endpoint">${escapeHtml(endpoint)}</code><button id="copy" type="button" hidden>Copy</button></div>
<p class="auth">${signIn(settings, origin)}</p>
${clients(endpoint, key, settings.authMode?.connect?.headers)}
</section>
${sectionOf('Tools', tools, undefined, 'This server has no tools.')}${sectionOf('Resources', resources, 'What a client can read: fixed URIs, and templates it fills in.')}${sectionOf('Prompts', publicly(server.compiled.prompts.values()), 'Ready-made requests a client offers its user.')}${
  // An extension's own section (Skills: each SKILL.md), from its `page` (../../mcp/extension.ts).
  server.compiled.extensions
    .map(({ page }) => (page ? sectionOf(page.title, publicly(page.items), page.about) : ''))
    .join('')
}<footer>${card ? `<a href="${SERVER_CARD_PATH}">Server Card</a> · ` : ''}Protocol revision 2026-07-28, Streamable HTTP</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>`;
}

/** A section of items, headed by `title`; with none, nothing, or `none` said when given. */
function sectionOf(title: string, items: readonly Shown[], about?: string, none?: string): string {
  if (items.length === 0 && !none) return '';
  const anchor = title.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  const listed = items.map(({ name, title, detail, description, requiredScopes }) => {
    const named = title && title !== name ? ` <span class="title">${escapeHtml(title)}</span>` : '';
    const at = detail ? ` <code class="detail">${escapeHtml(detail)}</code>` : '';
    const needs = requiredScopes?.length
      ? ` <span class="tag">needs ${requiredScopes.map(escapeHtml).join(', ')}</span>`
      : '';
    return `<li><code>${escapeHtml(name)}</code>${named}${at}${needs}${description ? `<p>${escapeHtml(description)}</p>` : ''}</li>`;
  });
  return `<section aria-labelledby="${anchor}">
<h2 id="${anchor}">${escapeHtml(title)} <span class="count">${items.length}</span></h2>
${about ? `<p>${escapeHtml(about)}</p>\n` : ''}${listed.length ? `<ul class="items ${anchor}">${listed.join('')}</ul>` : `<p>${none}</p>`}
</section>
`;
}

/** Whether a person needs to sign in, and how their client learns it: as the mode says (`connect` of its module). */
function signIn({ auth, authMode }: Settings, origin: string): string {
  if (!authMode) return 'No sign-in: any client with this URL can call it.';
  const metadata = `<a href="${METADATA_PATH}/mcp">${escapeHtml(origin)}${METADATA_PATH}/mcp</a>`;
  return authMode.connect?.signIn(auth, metadata) ?? 'Sign-in needed: your client is told how when it connects.';
}

/** How to add the server in the clients people use, with the headers it needs; `<details>` so it works without JavaScript. */
function clients(endpoint: string, key: string, headers: Readonly<Record<string, string>> | undefined): string {
  const url = escapeHtml(endpoint);
  const json = (value: unknown) => escapeHtml(JSON.stringify(value));
  const lines = Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  const flags = lines.map((line) => ` --header ${json(line)}`).join('');
  const config = { url: endpoint, ...(headers ? { headers } : {}) };
  // A hosted client's connector sends no header of the user's own: it signs in with OAuth, or not at all.
  const hosted = (steps: string) =>
    headers
      ? 'Its connectors send no header of your own: connect from a client below.'
      : `Settings → ${steps} and paste <code>${url}</code>.`;
  const entries: [string, string][] = [
    [
      'Claude',
      `${hosted('Connectors → <b>Add custom connector</b>,')} In Claude Code: <pre>claude mcp add --transport http ${escapeHtml(key)} ${url}${flags}</pre>`,
    ],
    [
      'ChatGPT',
      hosted('Apps &amp; Connectors → Advanced settings → turn on <b>Developer mode</b>, then <b>Create</b>'),
    ],
    ['VS Code', `<pre>code --add-mcp '${json({ name: key, type: 'http', ...config })}'</pre>`],
    ['Cursor', `In <code>~/.cursor/mcp.json</code>: <pre>${json({ mcpServers: { [key]: config } })}</pre>`],
    [
      'A client that speaks only stdio',
      `Through <code>mcp-remote</code>: <pre>${json({ mcpServers: { [key]: { command: 'npx', args: ['mcp-remote', endpoint, ...lines.flatMap((line) => ['--header', line])] } } })}</pre>`,
    ],
    [
      'MCP Inspector',
      `<pre>npx @modelcontextprotocol/inspector</pre> then choose <b>Streamable HTTP</b> and enter <code>${url}</code>${
        headers
          ? `, and under <b>Authentication</b> add ${lines.map((line) => `<code>${escapeHtml(line)}</code>`).join(' and ')}`
          : ''
      }. Its CLI: <pre>npx @modelcontextprotocol/inspector --cli ${url} --transport http${flags} --method tools/list</pre>`,
    ],
  ];
  return `<div class="clients">${entries.map(([client, how]) => `<details><summary>${client}</summary><div>${how}</div></details>`).join('')}</div>`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const STYLE = `
:root{--bg:#fbfbfa;--fg:#1d1d1f;--muted:#5f6368;--card:#fff;--line:#e3e3e0;--accent:#0b57d0;--code:#f1f1ee}
@media (prefers-color-scheme:dark){:root{--bg:#121314;--fg:#ececec;--muted:#a0a4a8;--card:#1c1d1f;--line:#2e3033;--accent:#8ab4f8;--code:#26282b}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:46rem;margin:0 auto;padding:2.5rem 1.25rem 3rem}
h1{font-size:2rem;line-height:1.2;margin:.25rem 0 .5rem}
h2{font-size:1.15rem;margin:2.25rem 0 .75rem}
.kind,.auth,footer{color:var(--muted)}
.kind{font-size:.85rem;margin:0;text-transform:uppercase;letter-spacing:.06em}
.about{font-size:1.1rem;margin:0}
code,pre{font:.9em/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:var(--code);padding:.1em .35em;border-radius:4px;overflow-wrap:anywhere}
pre{background:var(--code);padding:.6rem .75rem;border-radius:6px;overflow-x:auto;white-space:pre-wrap;word-break:break-all;margin:.5rem 0 0}
.endpoint{display:flex;gap:.5rem;align-items:stretch;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.5rem}
.endpoint code{flex:1;background:none;font-size:1rem;padding:.45rem .35rem;align-self:center}
button{font:inherit;font-weight:600;color:#fff;background:var(--accent);border:0;border-radius:7px;padding:.45rem 1rem;cursor:pointer}
@media (prefers-color-scheme:dark){button{color:#0b1b33}}
button:focus-visible,summary:focus-visible,a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
a{color:var(--accent)}
.clients details{background:var(--card);border:1px solid var(--line);border-radius:8px;margin:.5rem 0;padding:.55rem .8rem}
summary{cursor:pointer;font-weight:600}
details>div{margin-top:.5rem}
.items{list-style:none;padding:0;margin:0;display:grid;gap:.6rem}
.items li{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.7rem .9rem;overflow-wrap:anywhere}
.items p{margin:.3rem 0 0;color:var(--muted)}
.title{font-weight:600;margin-left:.35rem}
.detail{margin-left:.35rem;font-size:.8em}
.tag{font-size:.8rem;border:1px solid var(--line);border-radius:999px;padding:0 .5rem;margin-left:.35rem;color:var(--muted)}
.count{font-size:.85rem;color:var(--muted);font-weight:400}
footer{margin-top:2.5rem;font-size:.85rem}
`;

/** The copy button: shown only where a script runs; falls back to selecting the URL. */
const SCRIPT = `
const button = document.getElementById('copy');
const endpoint = document.getElementById('endpoint');
button.hidden = false;
button.addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(endpoint.textContent);
    button.textContent = 'Copied';
  } catch {
    getSelection().selectAllChildren(endpoint);
    button.textContent = 'Press Ctrl+C';
  }
  setTimeout(() => (button.textContent = 'Copy'), 2000);
});
`;
