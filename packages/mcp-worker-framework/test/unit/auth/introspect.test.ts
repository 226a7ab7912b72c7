/**
 * The settings of AUTH_MODE = "introspect" (src/auth/introspect.ts) fail closed (docs/production.md,
 * "Settings fail closed"): what the mode needs missing or unreadable is an error naming the
 * setting, never a server with authorization off.
 */
import { describe, expect, it } from 'vitest';
import { SettingError } from '../../../src/http/settings/settingsTable';
import { settingsOf as settingsFor } from '../../support/settings';

const INTROSPECT = {
  AUTH_MODE: 'introspect',
  AUTH_INTROSPECTION_URL: 'https://idp.example.com/oauth2/introspect',
  AUTH_INTROSPECTION_CLIENT_ID: 'mcp-server',
  AUTH_INTROSPECTION_CLIENT_SECRET: 's3cret',
  AUTH_RESOURCE: 'https://mcp.example.com/mcp',
};

const refusal = (env: Record<string, string>) => {
  const values = settingsFor(env);
  return values instanceof SettingError ? values.setting : undefined;
};

describe('AUTH_MODE = "introspect" settings', () => {
  it('reads the endpoint, the client, the resource and the cache bound (default 60 s)', () => {
    const settings = settingsFor(INTROSPECT);
    if (settings instanceof SettingError) throw new Error(settings.message);
    expect(settings.auth).toMatchObject({
      mode: 'introspect',
      url: INTROSPECT.AUTH_INTROSPECTION_URL,
      clientId: 'mcp-server',
      clientSecret: 's3cret',
      resource: INTROSPECT.AUTH_RESOURCE,
      cacheSeconds: 60,
      timeoutMs: 3000,
      authorizationServers: [],
    });
  });

  it.each([
    ['no endpoint', { AUTH_INTROSPECTION_URL: '' }, 'AUTH_INTROSPECTION_URL'],
    [
      'an endpoint over plain http off loopback',
      { AUTH_INTROSPECTION_URL: 'http://idp.example.com/introspect' },
      'AUTH_INTROSPECTION_URL',
    ],
    ['no client id', { AUTH_INTROSPECTION_CLIENT_ID: '' }, 'AUTH_INTROSPECTION_CLIENT_ID'],
    ['no client secret', { AUTH_INTROSPECTION_CLIENT_SECRET: '' }, 'AUTH_INTROSPECTION_CLIENT_SECRET'],
    [
      'a client secret with whitespace around it',
      { AUTH_INTROSPECTION_CLIENT_SECRET: ' s3cret' },
      'AUTH_INTROSPECTION_CLIENT_SECRET',
    ],
    ['no resource', { AUTH_RESOURCE: '' }, 'AUTH_RESOURCE'],
    ['a cache bound past an hour', { AUTH_INTROSPECTION_CACHE_SECONDS: '7200' }, 'AUTH_INTROSPECTION_CACHE_SECONDS'],
    ['a misspelt introspection setting', { AUTH_INTROSPECTION_CACHE_SECS: '10' }, 'AUTH_INTROSPECTION_CACHE_SECS'],
  ])('refuses %s, naming the setting', (_, change, setting) => {
    expect(refusal({ ...INTROSPECT, ...change })).toBe(setting);
  });
});
