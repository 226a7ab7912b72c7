/**
 * The auth modes the template ships, one file each: an entry lists those it serves
 * (`createWorker(definition, { auth: [bearer] })`: the one listed is served; with several,
 * AUTH_MODE chooses; the template's src/index.ts lists none). The sign-in mode,
 * the Worker as its own authorization server, is `signIn()` of `../signin` (docs/sign-in.md).
 */
export { access } from './access.js';
export { bearer } from './bearer.js';
export { introspect } from './introspect.js';
export { jwt } from './jwt.js';

type Shipped = typeof import('./index.js');
/** Every setting of the modes the template ships, for the settings of `FrameworkEnv` (src/env.ts). */
export type ModeSettingName =
  | { [K in keyof Shipped]: Shipped[K] extends { settings: infer R } ? keyof R & string : never }[keyof Shipped]
  | keyof typeof import('../signin/signInSettings.js').signInSettings;
