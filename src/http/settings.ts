/**
 * Deployment settings read from the Worker's vars (wrangler.toml `[vars]`). They are
 * parsed once per isolate and reused until the vars change.
 */

export interface Settings {
  /** True when a browser page at `origin` may call the endpoint served at `self`. */
  allowsOrigin(origin: string, self: string): boolean;
  maxBodyBytes: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

let cached: { key: string; settings: Settings } | undefined;

export function settingsFor(env: Env): Settings {
  const key = `${env.ALLOWED_ORIGINS}\n${env.MAX_BODY_BYTES}`;
  if (cached?.key !== key) cached = { key, settings: parseSettings(env) };
  return cached.settings;
}

function parseSettings(env: Env): Settings {
  const patterns = (env.ALLOWED_ORIGINS ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(originPattern);
  const limit = Number(env.MAX_BODY_BYTES);
  return {
    // spec 2026-07-28 streamable-http, Security: an Origin that is present must be valid;
    // the Worker's own origin always is, so the template works on any custom domain or *.workers.dev.
    allowsOrigin: (origin, self) => origin === self || patterns.some((p) => p.test(origin)),
    maxBodyBytes: Number.isSafeInteger(limit) && limit > 0 ? limit : DEFAULT_MAX_BODY_BYTES,
  };
}

/**
 * `https://app.example.com` matches itself; `https://*.example.com` any subdomain;
 * `http://localhost:*` any port; a lone `*` every origin.
 */
function originPattern(pattern: string): RegExp {
  if (pattern === '*') return /^/;
  const source = pattern
    .toLowerCase()
    .replace(/\/+$/, '')
    .split('*')
    .map((part) => part.replace(/[.?+^$()[\]{}|\\/]/g, '\\$&'))
    .join('\u0000')
    .replace(/:\u0000$/, '(?::\\d+)?')
    .replace(/\u0000/g, '[a-z0-9-]+(?:\\.[a-z0-9-]+)*');
  return new RegExp(`^${source}$`, 'i');
}
