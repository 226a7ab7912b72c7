/** The settings as a Worker that includes every auth mode the template ships reads them (src/http/settings/settings.ts). */
import { access, bearer, introspect, jwt } from '../../src/auth';
import { authMode } from '../../src/http/auth/auth';
import { readSettings, type Settings } from '../../src/http/settings/settings';
import { SettingError } from '../../src/http/settings/settingsTable';
import { signInSettingsMode } from '../../src/signin/signInSettings';
import type { WorkerEnv } from '../../src/env';

/** Every mode the template ships; sign-in's without its token check (its library needs the Workers runtime). */
export const SHIPPED_MODES = [
  bearer,
  jwt,
  access,
  introspect,
  authMode({ ...signInSettingsMode, verify: () => undefined }),
];

/** The settings of `env` (AUTH_MODE "none" unless it says otherwise: the Worker lists several modes), or the error naming the one that cannot be read. */
export const settingsOf = (env: Readonly<Record<string, unknown>>): Settings | SettingError =>
  readSettings({ AUTH_MODE: 'none', ...env }, SHIPPED_MODES);

/** The error naming the setting `env` gets wrong; throws when it is accepted. */
export function refused(env: Readonly<Record<string, unknown>>): SettingError {
  const outcome = settingsOf(env);
  if (!(outcome instanceof SettingError)) throw new Error(`${JSON.stringify(env)} was accepted`);
  return outcome;
}

/** The settings of `env`; throws the message of the setting it gets wrong. */
export function readableSettings(env: WorkerEnv): Settings {
  const settings = settingsOf(env as unknown as Record<string, unknown>);
  if (settings instanceof SettingError) throw new Error(settings.message);
  return settings;
}

/** A Worker env with every var set to a neutral value, plus the ones a test is about. */
export const envWith = (vars: Record<string, string | undefined>) =>
  ({
    ALLOWED_ORIGINS: '',
    MAX_BODY_BYTES: '',
    LISTEN_MAX_SECONDS: '',
    LEGACY_CLIENTS: 'on',
    AUTH_MODE: 'none',
    AUTH_ISSUER: '',
    REQUEST_LOGS: 'off',
    ...vars,
  }) as unknown as WorkerEnv;
