/**
 * The Worker's `env` (`WorkerEnv`, `./mcp/env.ts`) with the settings typed: those of the table in
 * src/http/settings/settingsTable.ts and of each auth mode (src/auth, src/signin), as optional text, since a
 * deployment may leave any out (each has a default, or is refused with a clear error when a mode
 * needs it). They are added here, above the layers that declare them, so that no layer imports
 * another to name the `env` it reads.
 */
import type { ModeSettingName } from './auth/index.js';
import type { SettingName } from './http/settings/settingsTable.js';

declare module './mcp/env.js' {
  interface FrameworkEnv extends Partial<Record<SettingName | ModeSettingName, string>> {}
}

export type { FrameworkEnv, WorkerEnv } from './mcp/env.js';
