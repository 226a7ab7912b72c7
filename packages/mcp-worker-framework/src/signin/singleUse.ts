/**
 * Single use of each enterprise assertion (`./assertionObject.ts` is the object that keeps it):
 * the binding, and the one call the grant makes. Apart from the class, so that what only calls it
 * never imports the Workers runtime's `DurableObject`.
 */
import type { ModeObject } from '../http/auth/auth.js';
import { SettingError } from '../http/settings/settingsTable.js';
import { sha256Hex, type WorkerEnv } from '../mcp/internal.js';
import type { McpAssertion } from './assertionObject.js';

/** The Durable Object binding of the class (the enterprise block of wrangler.toml, docs/sign-in.md). */
const ASSERTIONS_BINDING = 'MCP_ASSERTIONS';

/** The object enterprise sign-in needs of the deployment, as `npm run check` holds wrangler.toml and src/index.ts to it. */
export const ASSERTION_OBJECT: ModeObject = {
  binding: ASSERTIONS_BINDING,
  className: 'McpAssertion',
  exportLine: "export { McpAssertion } from 'mcp-worker-framework/signin';",
};

declare module '../mcp/env.js' {
  interface FrameworkEnv {
    /** Enterprise sign-in's single use of each assertion (the enterprise block of wrangler.toml, docs/sign-in.md). */
    MCP_ASSERTIONS?: DurableObjectNamespace<McpAssertion>;
  }
}

/** The assertions' namespace, when the deployment binds it (its absence is refused before any request: `problem`). */
function assertionsIn(env: WorkerEnv): DurableObjectNamespace<McpAssertion> | undefined {
  return env.MCP_ASSERTIONS;
}

/** Enterprise sign-in without the binding of its single-use store would refuse every assertion: the router says why instead (the mode's `problem`). */
export function singleUseProblem(env: WorkerEnv): SettingError | undefined {
  return assertionsIn(env)
    ? undefined
    : new SettingError(
        ASSERTIONS_BINDING,
        'is required with signIn({ enterprise }): a Durable Object binding of the class McpAssertion, which keeps each assertion single-use (the enterprise block of wrangler.toml, docs/sign-in.md)',
      );
}

/**
 * Whether this is the first presentation of the assertion `jti` of `issuer` anywhere. Throws when
 * the objects cannot be reached: the caller answers 503, never a refusal of a good assertion.
 */
export async function firstUse(env: WorkerEnv, issuer: string, jti: string, forgetAt: number): Promise<boolean> {
  const assertions = assertionsIn(env);
  if (!assertions) throw new Error(`the Durable Object binding ${ASSERTIONS_BINDING} is missing`);
  // The name is a hash: an issuer and a jti of any length make a name of one size, and never one of another pair.
  const name = await sha256Hex(`${issuer}\n${jti}`);
  return assertions.get(assertions.idFromName(name)).use(forgetAt);
}
