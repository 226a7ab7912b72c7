/**
 * What `npm run check` works out of a Worker in Node (scripts/workerFacts.mjs), from what
 * createWorker composed it of: the deployed Worker carries none of it.
 */
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../src/auth';
import { createWorker } from '../../../src/createWorker';
import { SHIPPED_MODES, workerFacts } from '../../../scripts/workerFacts.mjs';
import { SHIPPED_MODES as MODES } from '../../support/settings';

const info = { name: 'composed', version: '0' };
const inObject = {
  id: 'com.example/in-object',
  install: () => ({}),
  durableObject: { name: 'McpThing', binding: 'MCP_THING', make: () => class {} as never },
} as const;

describe('the facts npm run check reads of a Worker', () => {
  const facts = workerFacts(createWorker({ info }, { auth: [bearer], extensions: [inObject] }).fetch)!;

  it('names the Durable Object each extension needs, the modes listed and the secrets read', () => {
    expect(facts.durableObjects).toEqual([
      { binding: 'MCP_THING', className: 'McpThing', exportLine: 'export class McpThing extends worker.McpThing {}' },
    ]);
    expect(facts.authModes).toEqual(['bearer']);
    expect(facts.secrets).toEqual(['MCP_STATE_SECRET', 'MCP_BEARER_TOKEN']);
    expect(facts.refusal({})?.message).toMatch(/^MCP_BEARER_TOKEN is required/);
  });

  it('names the Durable Object an auth mode needs (enterprise sign-in: McpAssertion), with the line that exports its class', () => {
    const object = { binding: 'MCP_GUARD', className: 'McpGuard', exportLine: "export { McpGuard } from 'a-package';" };
    const withObject = workerFacts(createWorker({ info }, { auth: [{ ...bearer, durableObjects: [object] }] }).fetch)!;
    expect(withObject.durableObjects).toEqual([object]);
  });

  it('names the setting a name most likely misspells, and none for a setting', () => {
    expect(facts.nearestSetting('REQUST_LOGS')).toBe('REQUEST_LOGS');
    expect(facts.nearestSetting('REQUEST_LOGS')).toBeUndefined();
    expect(facts.nearestSetting('SOMETHING_ELSE')).toBeUndefined();
  });

  it('says what a refused AUTH_MODE most likely means: a misspelling, or a shipped mode to list', () => {
    expect(facts.meantMode('berer')).toBe('did you mean "bearer"?');
    expect(facts.meantMode('jwt')).toBe(
      `to serve it, list jwt (from 'mcp-worker-framework/auth') in \`auth: [...]\` in src/index.ts (docs/production.md)`,
    );
    expect(facts.meantMode('JWT')).toBe('did you mean "jwt"?');
    expect(facts.meantMode('kerberos')).toBe('no auth mode has that name');
    expect(facts.meantMode('bearer')).toBeUndefined();
    expect(facts.meantMode('none')).toBeUndefined();
  });

  it('knows every mode the package ships by its AUTH_MODE value', () => {
    expect(Object.keys(SHIPPED_MODES).sort()).toEqual(MODES.map((mode) => mode.name).sort());
  });

  it('has nothing to tell of a fetch that createWorker did not make', () => {
    expect(workerFacts(() => new Response())).toBeUndefined();
  });
});
