/**
 * The consent page (the library's node_modules/@cloudflare/workers-oauth-provider/docs/consent-page.md; MCP security best practices, "Confused
 * Deputy Problem"): which client asks, from which domain, where the tokens will go (a warning
 * when that is this computer), for which scopes; Allow or Deny. Everything the client chose
 * (its name, its URIs, the scopes) is escaped. One small page, readable on a phone and a
 * desktop, light or dark as the browser prefers, under a strict Content-Security-Policy: no
 * script at all, its one style allowed by a nonce, and no framing.
 */
import type { ConsentDescription } from '@cloudflare/workers-oauth-provider';

/** Text for HTML, attribute values included. */
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

interface ConsentView {
  details: ConsentDescription;
  handle: string;
  /** The scopes the user may grant: those the client asked for that this server offers. */
  scopes: readonly string[];
  /** Those scopes, signed with the handle: the form posts it back, so a scope added to the form is never granted. */
  offer: string;
  /** The provider the user will sign in with next ("GitHub", or the OIDC issuer's host). */
  provider: string;
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--bg:#f6f8fa;--card:#fff;--line:#d0d7de;--accent:#1f6feb;--warn:#9a6700;--warn-bg:#fff8c5}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#161b22;--line:#30363d;--accent:#4493f8;--warn:#d29922;--warn-bg:#2b2111}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:16px}
main{width:100%;max-width:440px;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:24px}
h1{font-size:1.25rem;margin:0 0 12px;overflow-wrap:anywhere}
p{margin:0 0 12px;overflow-wrap:anywhere}
.muted{color:var(--muted);font-size:.9rem}
.warn{background:var(--warn-bg);color:var(--warn);border-radius:8px;padding:8px 12px}
fieldset{border:1px solid var(--line);border-radius:8px;margin:0 0 12px;padding:8px 12px}
legend{font-size:.9rem;color:var(--muted)}
label{display:block;padding:4px 0;overflow-wrap:anywhere}
.remember{margin-bottom:12px}
.actions{display:flex;gap:12px;margin-top:16px}
button{flex:1;font:inherit;padding:10px 16px;border-radius:8px;border:1px solid var(--line);background:var(--card);color:var(--fg);cursor:pointer}
button.allow{background:var(--accent);border-color:var(--accent);color:#fff}
`;

/** The page, for `nonce` (the one style the CSP allows). */
export function consentPage({ details, handle, scopes, offer, provider }: ConsentView, nonce: string): string {
  const name = escapeHtml(details.clientName);
  const from = details.clientDomain
    ? `Published by <strong>${escapeHtml(details.clientDomain)}</strong>.`
    : 'This app registered itself: its name is not verified.';
  const scopeList =
    scopes.length === 0
      ? ''
      : `<fieldset><legend>It asks to</legend>${scopes.map((scope) => `<label><input type="checkbox" name="scope" value="${escapeHtml(scope)}" checked> ${escapeHtml(scope)}</label>`).join('')}</fieldset>`;
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Allow ${name}?</title>
<style nonce="${nonce}">${STYLE}</style>
<main>
<h1>Allow <span id="client-name">${name}</span> to use this server as you?</h1>
<p class="muted">${from}</p>
<p>Access will be sent to <strong id="redirect-host">${escapeHtml(details.redirectHost)}</strong>.</p>
${details.redirectIsLoopback ? '<p class="warn" id="loopback-warning"><strong>This sends access to an app on your computer.</strong> Continue only if you just started signing in from it.</p>' : ''}
<form method="post">
<input type="hidden" name="handle" value="${escapeHtml(handle)}">
<input type="hidden" name="offer" value="${escapeHtml(offer)}">
${scopeList}
<label class="muted remember"><input type="checkbox" name="remember" value="on"> Remember this app on this browser</label>
<p class="muted">Next, you sign in with ${escapeHtml(provider)}.</p>
<div class="actions"><button type="submit" name="decision" value="deny">Deny</button><button class="allow" type="submit" name="decision" value="approve">Allow</button></div>
</form>
</main>
</html>`;
}

/**
 * No script, no framing, no plugin, no base; the one style by its nonce. A form may post to this
 * origin only, and the redirects that follow it may go to the provider (Allow) and to the client
 * (Deny): browsers apply `form-action` to them too.
 */
export function consentPolicy(nonce: string, formTargets: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** An error page: what went wrong, for the person in front of it; nothing from the request unescaped. */
export function errorPage(title: string, message: string, nonce: string): string {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p class="muted">Go back to the app and start signing in again.</p></main>
</html>`;
}
