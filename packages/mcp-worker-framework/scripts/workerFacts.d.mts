/** Types for scripts/workerFacts.mjs (used by scripts/check-worker.mjs and its test). */
import type { SettingError } from '../src/http/settings/settingsTable.js';

export interface WorkerFacts {
  readonly authModes: readonly string[];
  readonly settings: readonly string[];
  readonly secrets: readonly string[];
  nearestSetting(name: string): string | undefined;
  meantMode(value: unknown): string | undefined;
  refusal(env: Readonly<Record<string, unknown>>): SettingError | undefined;
  readonly durableObjects: readonly { readonly binding: string; readonly className: string }[];
}
export function workerFacts(fetch: unknown): WorkerFacts | undefined;
export const SHIPPED_MODES: Readonly<Record<string, string>>;
