/**
 * The sandbox proxy of a web host (spec extensions/apps, Sandbox proxy), on an origin other than
 * the host's: it tells the host it is ready, loads the view's HTML it is sent into an inner iframe
 * under the Content Security Policy the spec builds from `_meta.ui.csp` (restrictive where a
 * field is left out), and relays every message between host and view but its own
 * `ui/notifications/sandbox-*` ones.
 */
interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** spec extensions/apps, Security Implications, Content Security Policy Enforcement: the spec's own construction. */
function buildCsp(csp: Csp = {}): string {
  const resources = (csp.resourceDomains ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${(csp.connectDomains ?? []).join(' ')}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${(csp.frameDomains ?? []).join(' ') || "'none'"}`,
    "object-src 'none'",
    `base-uri ${(csp.baseUriDomains ?? []).join(' ') || "'self'"}`,
  ]
    .map((directive) => directive.trim())
    .join('; ');
}

const PERMISSIONS: Record<string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

const host = new URLSearchParams(location.search).get('host') ?? '';
const inner = document.createElement('iframe');
inner.title = 'view';

function load(params: { html: string; csp?: Csp; permissions?: Record<string, object> }): void {
  const policy = buildCsp(params.csp);
  document.body.dataset.csp = policy;
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll('"', '&quot;')}">`;
  // The policy must come before anything it governs: first thing in the head.
  const html = /<head[^>]*>/i.test(params.html)
    ? params.html.replace(/<head[^>]*>/i, (head) => head + meta)
    : meta + params.html;
  // No allow-same-origin: the view gets an opaque origin, never the proxy's.
  inner.setAttribute('sandbox', 'allow-scripts');
  inner.setAttribute(
    'allow',
    Object.keys(params.permissions ?? {})
      .flatMap((p) => PERMISSIONS[p] ?? [])
      .join('; '),
  );
  inner.srcdoc = html;
  document.body.appendChild(inner);
}

window.addEventListener('message', (event) => {
  const message = event.data as { method?: unknown; params?: unknown };
  if (event.source === window.parent && event.origin === host) {
    if (message?.method === 'ui/notifications/sandbox-resource-ready')
      return load(message.params as Parameters<typeof load>[0]);
    if (typeof message?.method === 'string' && message.method.startsWith('ui/notifications/sandbox-')) return;
    inner.contentWindow?.postMessage(message, '*');
  } else if (event.source === inner.contentWindow) {
    // The view's own size, which the host also gets, sizes the inner frame.
    if (message?.method === 'ui/notifications/size-changed')
      inner.style.height = `${(message.params as { height?: number }).height ?? 0}px`;
    window.parent.postMessage(message, host);
  }
});
window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
