/**
 * The settings of AUTH_MODE = "access" (src/auth/access.ts) fail closed (docs/production.md,
 * "Settings fail closed"): what a mode needs missing or unreadable is an error naming the
 * setting, never a server with authorization off.
 */
import { describe, expect, it } from 'vitest';
import { SettingError } from '../../../src/http/settings/settingsTable';
import { envWith, readableSettings, settingsOf as settingsFor } from '../../support/settings';

const ACCESS = {
  AUTH_MODE: 'access',
  ACCESS_TEAM_DOMAIN: 'https://acme.cloudflareaccess.com',
  ACCESS_AUD: 'a'.repeat(64),
};

const refusal = (env: Record<string, string>) => {
  const values = settingsFor(env);
  return values instanceof SettingError ? values.setting : undefined;
};

describe('AUTH_MODE = "access" settings', () => {
  it('reads the team domain, its certs and the AUD tag', () => {
    const settings = settingsFor({ ...ACCESS, ACCESS_SCOPES_CLAIM: 'groups' });
    if (settings instanceof SettingError) throw new Error(settings.message);
    expect(settings.auth).toMatchObject({
      mode: 'access',
      issuer: 'https://acme.cloudflareaccess.com',
      certsUrl: 'https://acme.cloudflareaccess.com/cdn-cgi/access/certs',
      audiences: ['a'.repeat(64)],
      scopesClaim: 'groups',
    });
  });

  it('names its own header, Cf-Access-Jwt-Assertion, as where credentials arrive: what private answers vary on', () => {
    const settings = settingsFor(ACCESS);
    expect(settings instanceof SettingError ? settings.message : settings.credentialHeader).toBe(
      'Cf-Access-Jwt-Assertion',
    );
    // The modes with a bearer token, and auth off, name Authorization.
    expect(readableSettings(envWith({})).credentialHeader).toBe('Authorization');
    expect(readableSettings(envWith({ AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'secret' })).credentialHeader).toBe(
      'Authorization',
    );
  });

  it('reads several AUD tags, for a Worker behind more than one Access application', () => {
    const settings = settingsFor({ ...ACCESS, ACCESS_AUD: `${'a'.repeat(64)}, ${'b'.repeat(64)}` });
    expect(settings instanceof SettingError ? settings.message : settings.auth).toMatchObject({
      audiences: ['a'.repeat(64), 'b'.repeat(64)],
    });
  });

  it('takes a bare team domain as https', () => {
    const settings = settingsFor({ ...ACCESS, ACCESS_TEAM_DOMAIN: 'acme.cloudflareaccess.com' });
    expect(settings instanceof SettingError ? settings.message : settings.auth).toMatchObject({
      issuer: 'https://acme.cloudflareaccess.com',
    });
  });

  it.each([
    ['no team domain', { ACCESS_TEAM_DOMAIN: '' }, 'ACCESS_TEAM_DOMAIN'],
    [
      'a team domain over plain http off loopback',
      { ACCESS_TEAM_DOMAIN: 'http://acme.cloudflareaccess.com' },
      'ACCESS_TEAM_DOMAIN',
    ],
    ['no AUD tag', { ACCESS_AUD: '' }, 'ACCESS_AUD'],
    ['an AUD tag with a character no tag has', { ACCESS_AUD: 'abc$def01' }, 'ACCESS_AUD'],
    ['only a comma', { ACCESS_AUD: ',' }, 'ACCESS_AUD'],
    ['a scopes claim that is no claim name', { ACCESS_SCOPES_CLAIM: 'groups, roles' }, 'ACCESS_SCOPES_CLAIM'],
  ])('refuses %s, naming the setting', (_, change, setting) => {
    expect(refusal({ ...ACCESS, ...change })).toBe(setting);
  });
});
