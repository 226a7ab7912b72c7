/** The pure parts of the HTTP binding: Cache-Control mapping, header decoding, origin patterns. */
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../src/auth';
import { authenticate, constantTimeEqual } from '../../../src/http/auth';
import { decodeHeaderValue } from '../../../src/http/headers';
import { invalidParams } from '../../../src/mcp/errors';
import { cacheControl, errorResponse, replyResponse } from '../../../src/http/responses';
import { pathOf } from '../../../src/http/url';
import { readSettings as readWith, SettingError } from '../../../src/http/settings';
import { SHIPPED_MODES } from '../../support/settings';

const readSettings = (env: Env) => readWith(env as unknown as Record<string, unknown>, SHIPPED_MODES);

/** The settings of an env that can be read (test/unit/http/settings.test.ts has the ones that cannot). */
const settingsFor = (env: Env) => {
  const settings = readSettings(env);
  if (settings instanceof SettingError) throw new Error(settings.message);
  return settings;
};

/** A Worker env with every var set to a neutral value, plus the ones a test is about. */
const envWith = (vars: Record<string, string | undefined>) =>
  ({ ALLOWED_ORIGINS: '', MAX_BODY_BYTES: '', LISTEN_MAX_SECONDS: '', LEGACY_CLIENTS: 'on', AUTH_MODE: 'none', AUTH_ISSUER: '', REQUEST_LOGS: 'off', ...vars }) as unknown as Env;

describe('cacheControl', () => {
  it.each([
    [{ ttlMs: 3_600_000, cacheScope: 'public' as const }, 'public, max-age=3600'],
    [{ ttlMs: 1999, cacheScope: 'private' as const }, 'private, max-age=1'],
    [{ ttlMs: 999, cacheScope: 'public' as const }, 'public, no-cache'],
    [{ ttlMs: 0, cacheScope: 'private' as const }, 'private, no-cache'],
    [undefined, 'no-store'],
  ])('maps %j to %s', (policy, header) => {
    expect(cacheControl(policy)).toBe(header);
  });
});

describe('answers share their header sets, never their headers', () => {
  it('a header set on one answer (Retry-After, CORS) does not reach the next one', () => {
    const policy = { ttlMs: 0, cacheScope: 'private' } as const;
    for (const make of [() => errorResponse(1, invalidParams('x')), () => replyResponse(1, { result: {}, cache: policy }), () => replyResponse(1, { result: {} })]) {
      const first = make();
      first.headers.set('Retry-After', '1');
      first.headers.set('Access-Control-Allow-Origin', 'https://a.example');
      const second = make();
      expect(second.headers.get('Retry-After')).toBeNull();
      expect(second.headers.get('Access-Control-Allow-Origin')).toBeNull();
      expect(second.headers.get('Content-Type')).toBe('application/json');
    }
  });
});

describe('decodeHeaderValue', () => {
  // The spec's own examples (streamable-http, Value Encoding).
  it.each([
    ['us-west1', 'us-west1'],
    ['=?base64?SGVsbG8sIOS4lueVjA==?=', 'Hello, 世界'],
    ['=?base64?IHBhZGRlZCA=?=', ' padded '],
    ['=?base64?bGluZTEKbGluZTI=?=', 'line1\nline2'],
    ['=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=', '=?base64?literal?='],
  ])('decodes %s', (raw, value) => {
    expect(decodeHeaderValue(raw)).toBe(value);
  });

  it.each(['=?base64?abc?=', '=?base64?!!!!?=', '=?base64?/w==?='])('rejects the broken encoding %s', (raw) => {
    expect(decodeHeaderValue(raw)).toBeUndefined();
  });

  it('leaves a value with the wrong-case marker as plain text', () => {
    expect(decodeHeaderValue('=?BASE64?YQ==?=')).toBe('=?BASE64?YQ==?=');
  });
});

describe('allowed origins', () => {
  const settings = settingsFor(envWith({ ALLOWED_ORIGINS: 'https://app.example.com, https://*.example.org http://localhost:*', MAX_BODY_BYTES: '2048' }));
  it.each([
    ['https://app.example.com', true],
    ['https://APP.example.com', true],
    ['https://app.example.com:8443', false],
    ['http://app.example.com', false],
    ['https://a.b.example.org', true],
    ['https://example.org', false],
    ['https://example.org.evil.net', false],
    ['http://localhost:6274', true],
    ['http://localhost', true],
    ['http://localhost.evil.net', false],
    ['https://mcp.example.net', false],
    ['null', false],
  ])('%s → %s', (origin, allowed) => {
    expect(settings.allowsOrigin(origin)).toBe(allowed);
  });

  it('reads the body limit, and refuses nonsense rather than guess', () => {
    expect(settings.maxBodyBytes).toBe(2048);
    expect(readSettings(envWith({ MAX_BODY_BYTES: 'lots' }))).toBeInstanceOf(SettingError);
  });
});

describe('pathOf', () => {
  it.each([
    ['http://localhost:8787/mcp', '/mcp'],
    ['https://a.example.com/mcp?x=1', '/mcp'],
    ['https://a.example.com/mcp#frag', '/mcp'],
    ['https://a.example.com/mcp/extra', '/mcp/extra'],
    ['https://a.example.com', '/'],
    ['http://[::1]:8787/mcp', '/mcp'],
  ])('reads %s as %s', (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});

describe('bearer mode', () => {
  const env = (token?: string) => envWith({ AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: token });
  const request = (authorization?: string) => new Request('https://mcp.example.com/mcp', { method: 'POST', headers: authorization ? { Authorization: authorization } : {} });

  it('admits exactly the configured secret', async () => {
    const settings = settingsFor(env('s3cret-token'));
    expect((await authenticate(request('Bearer s3cret-token'), settings, 'https://mcp.example.com', bearer, env())).caller?.subject).toBe('bearer');
    for (const header of [undefined, 'Bearer s3cret-tokeN', 'Bearer s3cret-token-longer', 'Basic s3cret-token', 'Bearer ']) {
      const outcome = await authenticate(request(header), settings, 'https://mcp.example.com', bearer, env());
      expect(outcome.refused?.status).toBe(401);
    }
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])('reads the scheme %s case-insensitively (RFC 9110 11.1)', async (scheme) => {
    const outcome = await authenticate(request(`${scheme} s3cret-token`), settingsFor(env('s3cret-token')), 'https://mcp.example.com', bearer, env());
    expect(outcome.caller?.subject).toBe('bearer');
  });

  it('compares in constant time: every byte, whatever the lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'ab')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('', 'a')).toBe(false);
  });
});

describe('allowed hosts (DNS rebinding of a local server)', () => {
  it('allows any host when none is configured', () => {
    expect(settingsFor(envWith({})).allowsHost('evil.example.com')).toBe(true);
  });
  it.each([
    ['localhost:8787', true],
    ['127.0.0.1:8787', true],
    ['mcp.example.workers.dev', true],
    ['evil.example.com', false],
    ['localhost.evil.com:8787', false],
    [null, false],
  ])('with ALLOWED_HOSTS set, %s → %s', (host, allowed) => {
    const settings = settingsFor(envWith({ ALLOWED_HOSTS: 'localhost:*, 127.0.0.1:*, *.workers.dev' }));
    expect(settings.allowsHost(host)).toBe(allowed);
  });
});
