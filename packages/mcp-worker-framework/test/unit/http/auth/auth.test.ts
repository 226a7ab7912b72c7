/**
 * Who a request comes from (src/http/auth/auth.ts): the bearer mode admits exactly its secret, compared
 * in constant time; AUTH_MODE = "signin" is refused, naming what is missing, when the entry does
 * not include the sign-in mode or the deployment has no OAUTH_KV namespace: never a server whose
 * token check cannot run (docs/sign-in.md, "Settings").
 */
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../../src/auth';
import { authMode, constantTimeEqual } from '../../../../src/http/auth/auth';
import { envWith, readableSettings } from '../../../support/settings';
import { createRouter } from '../../../../src/http/router';
import { SettingError } from '../../../../src/http/settings/settingsTable';
import { createServer } from '../../../../src/mcp';
import { signInSettingsMode } from '../../../../src/signin/signInSettings';
import type { WorkerEnv } from '../../../../src/env';

const server = createServer({ info: { name: 'sign-in-router', version: '1.0.0' } });
const SIGN_IN_ENV = {
  AUTH_MODE: 'signin',
  AUTH_RESOURCE: 'https://mcp.example.com/mcp',
  LOGIN_PROVIDER: 'github',
  LOGIN_CLIENT_ID: 'client-id',
  LOGIN_CLIENT_SECRET: 'client-secret',
  MCP_STATE_SECRET: 'state-secret',
};
/** A sign-in that would admit anyone, and says what it lacks as the real one does (`problem` of src/signin/signInServer.ts). */
const admitsAll = authMode({
  ...signInSettingsMode,
  problem: (_, env) =>
    env.OAUTH_KV ? undefined : new SettingError('OAUTH_KV', 'is required with AUTH_MODE = "signin"'),
  verify: async () => ({ subject: 'anyone', kind: 'person', scopes: [], claims: {} }),
  routes: [],
});
const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
/** The config the bearer mode parsed (settings hold it as any mode's). */
type BearerConfig = Parameters<typeof bearer.authenticate>[1];
const post = () =>
  new Request('https://mcp.example.com/mcp', { method: 'POST', headers: { Authorization: 'Bearer x' }, body: '{}' });

describe('AUTH_MODE = "signin"', () => {
  it('is refused by an entry without sign-in, naming AUTH_MODE and where the mode is added', async () => {
    const response = await createRouter(server).fetch(post(), SIGN_IN_ENV as unknown as WorkerEnv, ctx);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'Server misconfigured: the setting AUTH_MODE must be "none" or unset: src/index.ts lists no mode in `auth: [...]`',
    );
  });

  it('is refused with what the sign-in entry says it lacks, before any token is checked', async () => {
    const response = await createRouter(server, [admitsAll]).fetch(post(), SIGN_IN_ENV as unknown as WorkerEnv, ctx);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/OAUTH_KV is required/);
  });
});

/** The settings of an env that can be read (test/unit/http/settings/settings.test.ts has the ones that cannot). */

describe('bearer mode', () => {
  const env = (token?: string) => envWith({ AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: token });
  const request = (authorization?: string) =>
    new Request('https://mcp.example.com/mcp', {
      method: 'POST',
      headers: authorization ? { Authorization: authorization } : {},
    });

  it('admits exactly the configured secret', async () => {
    const settings = readableSettings(env('s3cret-token'));
    expect(
      (await bearer.authenticate(request('Bearer s3cret-token'), settings.auth as BearerConfig, env())).caller?.subject,
    ).toBe('bearer');
    for (const header of [
      undefined,
      'Bearer s3cret-tokeN',
      'Bearer s3cret-token-longer',
      'Basic s3cret-token',
      'Bearer ',
    ]) {
      const outcome = await bearer.authenticate(request(header), settings.auth as BearerConfig, env());
      expect(outcome.refused?.kind).toBe(
        header === undefined || header.startsWith('Basic') || header === 'Bearer ' ? 'tokenRequired' : 'tokenInvalid',
      );
    }
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])('reads the scheme %s case-insensitively (RFC 9110 11.1)', async (scheme) => {
    const outcome = await bearer.authenticate(
      request(`${scheme} s3cret-token`),
      readableSettings(env('s3cret-token')).auth as BearerConfig,
      env(),
    );
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
