/**
 * The auth modes the template ships, one file each: an entry lists those it serves
 * (`createWorker(definition, { auth: [bearer, jwt, access, introspect] })`). The sign-in mode,
 * the Worker as its own authorization server, is `signIn()` of `../signin` (docs/sign-in.md).
 */
export { access } from './access';
export { bearer } from './bearer';
export { introspect } from './introspect';
export { jwt } from './jwt';
