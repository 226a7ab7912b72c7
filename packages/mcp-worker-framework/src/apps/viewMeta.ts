/**
 * A view's `_meta.ui` (spec extensions/apps, UI Resource Format): what the host builds the view's
 * Content Security Policy and iframe `allow` attribute from. A host copies these origins into a
 * CSP header, so each is checked at module load: an origin, nothing a header could be split on.
 */

/** Origins the view may reach; each maps to CSP directives the host writes (spec extensions/apps, Content Security Policy Enforcement). */
export interface ViewCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: readonly string[];
  /** `script-src`, `style-src`, `img-src`, `font-src`, `media-src`; `https://*.example.com` allowed. */
  resourceDomains?: readonly string[];
  /** `frame-src`: nested iframes (none when left out). */
  frameDomains?: readonly string[];
  /** `base-uri` (`'self'` when left out). */
  baseUriDomains?: readonly string[];
}

/** Browser features the view asks for; hosts MAY grant them (iframe `allow`), so views feature-detect. */
export interface ViewPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

export interface ViewMeta {
  csp?: ViewCsp;
  permissions?: ViewPermissions;
  /** A dedicated sandbox origin; its format is the host's (spec: host-dependent). */
  domain?: string;
  /** Whether the host draws a border and background around the view. */
  prefersBorder?: boolean;
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
const META_KEYS = ['csp', 'permissions', 'domain', 'prefersBorder'];
const SCHEMES = new Set(['https:', 'http:', 'wss:', 'ws:']);
// A `*.` label is the only wildcard CSP allows in a host (CSP3 host-source); it is swapped for a
// plain label so the URL parser can check the rest.
const WILDCARD = '://*.';

/** `entry` when it is an origin CSP can carry (scheme, host, optional port; a leading `*.` label), else why not. */
function cspOriginProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'string') return 'is not a string';
  const plain = entry.replace(WILDCARD, '://wildcard.');
  let url: URL;
  try {
    url = new URL(plain);
  } catch {
    return 'is not an origin such as https://api.example.com';
  }
  if (!SCHEMES.has(url.protocol)) return 'must use https, http, wss or ws';
  // Anything beyond the origin (a path, a query, credentials, whitespace or quotes a header could
  // be split on) makes the serialized origin differ from what was written.
  if (url.origin !== plain)
    return 'must be an origin alone, as a browser writes it: scheme and host in lower case, a port only when not the default, no path or trailing slash';
  return undefined;
}

/** Checks a view's `_meta.ui`; a mistake throws at module load with `where` and what to write instead. */
export function checkViewMeta(meta: ViewMeta, where: string): ViewMeta {
  for (const key of Object.keys(meta)) {
    if (!META_KEYS.includes(key))
      throw new Error(
        `${where}: unknown field "${key}"; a view takes uri, name, title, description, page or html, cache, and the spec's _meta.ui fields ${META_KEYS.join(', ')}`,
      );
  }
  for (const [key, list] of Object.entries(meta.csp ?? {})) {
    if (!(CSP_KEYS as readonly string[]).includes(key))
      throw new Error(`${where}: unknown csp field "${key}"; the spec defines ${CSP_KEYS.join(', ')}`);
    if (!Array.isArray(list)) throw new Error(`${where}: csp.${key} must be a list of origins`);
    for (const entry of list as unknown[]) {
      const problem = cspOriginProblem(entry);
      if (problem) throw new Error(`${where}: csp.${key} entry ${JSON.stringify(entry)} ${problem}`);
    }
  }
  for (const [key, value] of Object.entries(meta.permissions ?? {})) {
    if (!(PERMISSIONS as readonly string[]).includes(key))
      throw new Error(`${where}: unknown permission "${key}"; the spec defines ${PERMISSIONS.join(', ')}`);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length > 0) {
      throw new Error(`${where}: permissions.${key} must be {} (asking for it), or left out`);
    }
  }
  if (meta.domain !== undefined && (typeof meta.domain !== 'string' || !/^[A-Za-z0-9.:/*-]+$/.test(meta.domain))) {
    throw new Error(`${where}: domain must be the host's sandbox domain, e.g. "a904794854a047f6.claudemcpcontent.com"`);
  }
  if (meta.prefersBorder !== undefined && typeof meta.prefersBorder !== 'boolean')
    throw new Error(`${where}: prefersBorder must be true or false`);
  return meta;
}
