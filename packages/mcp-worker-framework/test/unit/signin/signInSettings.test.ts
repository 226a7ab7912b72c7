/**
 * The sign-in mode's settings fail closed (docs/sign-in.md, "Settings"): what AUTH_MODE = "signin"
 * needs is required, named when missing (by the mode's parser, src/signin/signInSettings.ts,
 * which the Worker and `npm run check` run); LOGIN_* settings without it are refused rather than
 * ignored; the issuer comes from AUTH_RESOURCE, never from a request.
 */
import { describe, expect, it } from 'vitest';
import { SettingError } from '../../../src/http/settings/settingsTable';
import { refused, settingsOf } from '../../support/settings';

const SIGN_IN = {
  AUTH_MODE: 'signin',
  AUTH_RESOURCE: 'https://mcp.example.com/mcp',
  LOGIN_PROVIDER: 'github',
  LOGIN_CLIENT_ID: 'Iv1.0123456789abcdef',
  LOGIN_CLIENT_SECRET: 'github-secret',
  MCP_STATE_SECRET: 'state-secret',
};

const refusal = (env: Record<string, string | undefined>) =>
  refused(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)));

describe('AUTH_MODE = "signin"', () => {
  it.each([
    [{ AUTH_RESOURCE: undefined }, 'AUTH_RESOURCE', /required with AUTH_MODE = "signin"/],
    [{ LOGIN_PROVIDER: undefined }, 'LOGIN_PROVIDER', /required with AUTH_MODE = "signin"/],
    [{ LOGIN_PROVIDER: 'gitlab' }, 'LOGIN_PROVIDER', /`github` or `oidc`/],
    [{ LOGIN_PROVIDER: 'oidc' }, 'LOGIN_ISSUER', /required with LOGIN_PROVIDER = "oidc"/],
    [{ LOGIN_PROVIDER: 'oidc', LOGIN_ISSUER: 'http://idp.example.com' }, 'LOGIN_ISSUER', /http only on loopback/],
    [{ LOGIN_ISSUER: 'https://idp.example.com' }, 'LOGIN_ISSUER', /LOGIN_PROVIDER = "oidc" only/],
    [{ LOGIN_CLIENT_ID: undefined }, 'LOGIN_CLIENT_ID', /required with AUTH_MODE = "signin"/],
    [{ LOGIN_CLIENT_ID: 'has space' }, 'LOGIN_CLIENT_ID', /client ID/],
    [{ LOGIN_CLIENT_SECRET: undefined }, 'LOGIN_CLIENT_SECRET', /wrangler secret put LOGIN_CLIENT_SECRET/],
    [{ MCP_STATE_SECRET: undefined }, 'MCP_STATE_SECRET', /remembered consent/],
    [{ AUTH_ISSUER: 'https://issuer.example.com' }, 'AUTH_ISSUER', /its own issuer/],
    [{ LOGIN_GITHUB_URL: 'http://github.example.com' }, 'LOGIN_GITHUB_URL', /http only on loopback/],
    [{ LOGIN_SECRET: 'x' }, 'LOGIN_SECRET', /not a setting of this Worker; its LOGIN_ settings are LOGIN_PROVIDER, /],
  ])('%j is refused, naming %s', (change, setting, why) => {
    const error = refusal({ ...SIGN_IN, ...change });
    expect(error.setting).toBe(setting);
    expect(error.message).toMatch(why);
  });

  it('refuses a LOGIN_ setting while sign-in is off, rather than ignoring it', () => {
    const error = refusal({ LOGIN_PROVIDER: 'github' });
    expect(error.setting).toBe('LOGIN_PROVIDER');
    expect(error.message).toMatch(/AUTH_MODE is not "signin"/);
  });

  it("takes the issuer from AUTH_RESOURCE, and GitHub's endpoints by default", () => {
    const settings = settingsOf({ ...SIGN_IN, AUTH_RESOURCE: 'https://mcp.example.com/mcp' });
    if (settings instanceof SettingError) throw new Error(settings.message);
    expect(settings.auth).toMatchObject({
      mode: 'signin',
      issuer: 'https://mcp.example.com',
      resource: 'https://mcp.example.com/mcp',
      authorizationServers: ['https://mcp.example.com'],
    });
    expect((settings.auth as unknown as { login: unknown }).login).toEqual({
      provider: 'github',
      clientId: SIGN_IN.LOGIN_CLIENT_ID,
      clientSecret: SIGN_IN.LOGIN_CLIENT_SECRET,
      githubUrl: 'https://github.com',
      githubApiUrl: 'https://api.github.com',
      stateSecret: SIGN_IN.MCP_STATE_SECRET,
    });
  });
});
