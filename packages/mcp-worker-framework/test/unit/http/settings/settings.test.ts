/**
 * Settings fail closed (docs/production.md, Settings): every value is parsed by the core's table in
 * src/http/settings/settingsTable.ts and the rows of the auth modes a Worker includes, and one that cannot
 * be read is an error naming the setting and what it accepts, never the setting turned off.
 */
import { describe, expect, it } from 'vitest';
import { bearer, jwt } from '../../../../src/auth';
import { readSettings, settingsReader } from '../../../../src/http/settings/settings';
import { parseRows, SETTINGS, SettingError } from '../../../../src/http/settings/settingsTable';
import { envWith, readableSettings, refused, SHIPPED_MODES } from '../../../support/settings';
import type { WorkerEnv } from '../../../../src/env';

describe('settings that cannot be read', () => {
  it.each([
    [
      { AUTH_MODE: 'berer' },
      'AUTH_MODE',
      /^AUTH_MODE must be "bearer", "jwt", "access", "introspect", "signin" or "none": the modes src\/index.ts lists in `auth`, or none \(it is "berer"\)$/,
    ],
    [{ AUTH_MODE: 'JWT' }, 'AUTH_MODE', /must be "bearer", "jwt", .* \(it is "JWT"\)/],
    [{ MAX_BODY_BYTES: 'lots' }, 'MAX_BODY_BYTES', /whole number of bytes/],
    [{ MAX_BODY_BYTES: '0x100000' }, 'MAX_BODY_BYTES', /whole number of bytes/],
    [{ MAX_BODY_BYTES: '1e6' }, 'MAX_BODY_BYTES', /whole number of bytes/],
    [{ LISTEN_MAX_SECONDS: '-5' }, 'LISTEN_MAX_SECONDS', /whole number of seconds/],
    [{ LISTEN_MAX_STREAMS: '2.5' }, 'LISTEN_MAX_STREAMS', /whole number/],
    [{ ALLOWED_ORIGINS: 'app.example.com' }, 'ALLOWED_ORIGINS', /origins/],
    [{ ALLOWED_ORIGINS: 'https://app.example.com/path' }, 'ALLOWED_ORIGINS', /origins/],
    [{ ALLOWED_HOSTS: 'https://mcp.example.com' }, 'ALLOWED_HOSTS', /host names/],
    [{ REQUEST_LOGS: 'yes' }, 'REQUEST_LOGS', /`on`, `errors` or `off`/],
    [{ LEGACY_CLIENTS: 'true' }, 'LEGACY_CLIENTS', /`on` or `off`/],
    [
      { PUBLIC_URL: 'https://mcp.example.com/' },
      'PUBLIC_URL',
      /https URL \(http only on loopback\) whose path is `\/mcp`.*its path is "\/"/,
    ],
    [{ PUBLIC_URL: 'http://mcp.example.com/mcp' }, 'PUBLIC_URL', /whose path is `\/mcp`/],
    [
      { AUTH_MODE: 'jwt', AUTH_RESOURCE: 'https://mcp.example.com/mcp' },
      'AUTH_ISSUER',
      /required with AUTH_MODE = "jwt"/,
    ],
    [
      { AUTH_MODE: 'jwt', AUTH_ISSUER: 'https://issuer.example.com' },
      'AUTH_RESOURCE',
      /required with AUTH_MODE = "jwt"/,
    ],
    [
      { AUTH_MODE: 'jwt', AUTH_ISSUER: 'http://issuer.example.com', AUTH_RESOURCE: 'https://mcp.example.com/mcp' },
      'AUTH_ISSUER',
      /https URL/,
    ],
    [{ AUTH_MODE: 'bearer' }, 'MCP_BEARER_TOKEN', /required with AUTH_MODE = "bearer"/],
    [{ AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: ' s3cret\n' }, 'MCP_BEARER_TOKEN', /no whitespace around it/],
    [{ AUTH_MOD: 'jwt' }, 'AUTH_MOD', /not a setting of this Worker; its AUTH_ settings are AUTH_MODE, /],
  ])('%j is refused, naming %s and what it accepts', (env, setting, accepts) => {
    const error = refused(env);
    expect(error.setting).toBe(setting);
    expect(error.message).toMatch(accepts);
  });

  it('never puts a secret in the message, and says what was wrong with the rest', () => {
    expect(refused({ AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: ' hunter2 ' }).message).not.toContain('hunter2');
    expect(refused({ ALLOWED_ORIGINS: 'https://ok.example.com, not-an-origin' }).detail).toBe(
      '"not-an-origin" is not an origin',
    );
    expect(refused({ AUTH_MODE: 'JWT' }).detail).toBe('it is "JWT"');
  });
});

describe('the auth mode, decided by the `auth` list of src/index.ts', () => {
  const bearerEnv = { MCP_BEARER_TOKEN: 'the token' };
  const jwtEnv = { AUTH_ISSUER: 'https://issuer.example.com', AUTH_RESOURCE: 'https://mcp.example.com/mcp' };
  const modeOf = (env: Record<string, unknown>, modes: typeof SHIPPED_MODES) => {
    const settings = readSettings(env, modes);
    if (settings instanceof SettingError) throw new Error(settings.message);
    return settings.auth.mode;
  };
  const refusal = (env: Record<string, unknown>, modes: typeof SHIPPED_MODES) => {
    const settings = readSettings(env, modes);
    if (!(settings instanceof SettingError)) throw new Error(`${JSON.stringify(env)} was accepted`);
    return settings;
  };

  it('serves the one mode listed without AUTH_MODE, or with AUTH_MODE naming it', () => {
    expect(modeOf(bearerEnv, [bearer])).toBe('bearer');
    expect(modeOf({ ...bearerEnv, AUTH_MODE: '' }, [bearer])).toBe('bearer');
    expect(modeOf({ ...bearerEnv, AUTH_MODE: 'bearer' }, [bearer])).toBe('bearer');
  });

  it('refuses an AUTH_MODE that names another mode than the one listed, naming both', () => {
    const error = refusal({ ...jwtEnv, AUTH_MODE: 'jwt' }, [bearer]);
    expect(error.setting).toBe('AUTH_MODE');
    expect(error.why).toBe('must be "bearer" or "none": the mode src/index.ts lists in `auth`, or none');
    expect(error.detail).toBe('it is "jwt"');
  });

  it('chooses among several modes by AUTH_MODE, which must name one of them or none', () => {
    expect(modeOf({ ...jwtEnv, AUTH_MODE: 'jwt' }, [bearer, jwt])).toBe('jwt');
    expect(modeOf({ AUTH_MODE: 'none' }, [bearer, jwt])).toBe('none');
    const missing = refusal({ ...jwtEnv }, [bearer, jwt]);
    expect(missing.message).toBe(
      'AUTH_MODE must be "bearer", "jwt" or "none": the modes src/index.ts lists in `auth`, or none; with several listed it must say which to serve (docs/production.md)',
    );
    expect(refusal({ AUTH_MODE: 'access' }, [bearer, jwt]).message).toMatch(
      /^AUTH_MODE must be "bearer", "jwt" or "none": .* \(it is "access"\)$/,
    );
  });

  it('serves no auth when no mode is listed, and refuses any other AUTH_MODE than none', () => {
    expect(modeOf({}, [])).toBe('none');
    expect(modeOf({ AUTH_MODE: 'none' }, [])).toBe('none');
    expect(refusal({ ...bearerEnv, AUTH_MODE: 'bearer' }, []).message).toBe(
      'AUTH_MODE must be "none" or unset: src/index.ts lists no mode in `auth: [...]` (it is "bearer")',
    );
  });

  it('names a misspelt AUTH_MODE in the log only, never sending the value to clients (why)', () => {
    const error = refusal({ AUTH_MODE: 'berer' }, [bearer]);
    expect(error.why).not.toContain('berer');
    expect(error.detail).toBe('it is "berer"');
  });

  it('still serves no auth with AUTH_MODE = "none" beside one listed mode: the explicit choice of a test', () => {
    expect(modeOf({ AUTH_MODE: 'none' }, [bearer])).toBe('none');
  });
});

describe('settings that can be read', () => {
  it("takes the table's default for each var that is unset or empty", () => {
    const values = parseRows(SETTINGS, { AUTH_MODE: '', ALLOWED_HOSTS: '' });
    expect(values).toEqual(
      Object.fromEntries(Object.entries(SETTINGS).map(([name, setting]) => [name, setting.default])),
    );
  });

  it('reads an empty AUTH_ var of a mode the Worker does not include as unset, as wrangler.toml keeps `AUTH_ISSUER = ""`', () => {
    expect(readSettings({ AUTH_ISSUER: '', AUTH_MODE: 'none' }, [])).not.toBeInstanceOf(SettingError);
  });

  it('has the rows of the modes a Worker includes, and no others: a mode left out takes its settings with it', () => {
    expect(
      readSettings(
        { AUTH_MODE: 'jwt', AUTH_ISSUER: 'https://issuer.example.com', AUTH_RESOURCE: 'https://mcp.example.com/mcp' },
        [jwt],
      ),
    ).not.toBeInstanceOf(SettingError);
    const error = readSettings({ AUTH_INTROSPECTION_URL: 'https://idp.example.com/introspect' }, [jwt]);
    expect(error instanceof SettingError && error.setting).toBe('AUTH_INTROSPECTION_URL');
  });

  it("reads each value by its setting's grammar", () => {
    expect(
      parseRows(Object.assign({}, SETTINGS, ...SHIPPED_MODES.map((mode) => mode.settings)), {
        ALLOWED_ORIGINS: 'https://app.example.com, https://*.example.org http://localhost:*',
        ALLOWED_HOSTS: 'localhost:*, [::1]:8787',
        MAX_BODY_BYTES: '2048',
        AUTH_MODE: 'jwt',
        AUTH_ISSUER: 'http://127.0.0.1:4000/issuer',
        AUTH_RESOURCE: 'https://mcp.example.com/mcp',
        AUTH_SCOPES: 'mcp:read mcp:admin',
      }),
    ).toMatchObject({
      ALLOWED_ORIGINS: ['https://app.example.com', 'https://*.example.org', 'http://localhost:*'],
      ALLOWED_HOSTS: ['localhost:*', '[::1]:8787'],
      MAX_BODY_BYTES: 2048,
      AUTH_MODE: 'jwt',
      AUTH_SCOPES: ['mcp:read', 'mcp:admin'],
    });
  });
});

const readEnv = (env: WorkerEnv) => readSettings(env as unknown as Record<string, unknown>, SHIPPED_MODES);

describe('the env a runtime hands over', () => {
  it("reads each setting by name, as workerd's env holds them: properties that a copy of the object would miss", () => {
    const env = Object.create(
      { AUTH_MODE: 'bearer', MCP_BEARER_TOKEN: 'a-long-enough-shared-secret-for-bearer' },
      {},
    ) as WorkerEnv;
    const settings = settingsReader(SHIPPED_MODES)(env);
    expect(settings).not.toBeInstanceOf(SettingError);
    expect((settings as Exclude<typeof settings, SettingError>).authMode?.name).toBe('bearer');
  });
});

describe('allowed origins', () => {
  const settings = readableSettings(
    envWith({
      ALLOWED_ORIGINS: 'https://app.example.com, https://*.example.org http://localhost:*',
      MAX_BODY_BYTES: '2048',
    }),
  );
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
    expect(readEnv(envWith({ MAX_BODY_BYTES: 'lots' }))).toBeInstanceOf(SettingError);
  });
});

describe('allowed hosts (DNS rebinding of a local server)', () => {
  it('allows any host when none is configured', () => {
    expect(readableSettings(envWith({})).allowsHost('evil.example.com')).toBe(true);
  });
  it.each([
    ['localhost:8787', true],
    ['127.0.0.1:8787', true],
    ['mcp.example.workers.dev', true],
    ['evil.example.com', false],
    ['localhost.evil.com:8787', false],
    [null, false],
  ])('with ALLOWED_HOSTS set, %s → %s', (host, allowed) => {
    const settings = readableSettings(envWith({ ALLOWED_HOSTS: 'localhost:*, 127.0.0.1:*, *.workers.dev' }));
    expect(settings.allowsHost(host)).toBe(allowed);
  });
});
