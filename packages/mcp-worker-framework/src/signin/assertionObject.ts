/**
 * Single use of an enterprise assertion (an ID-JAG), across every location: one Durable Object
 * per assertion, named by its issuer and `jti`, which says yes to the first presentation and no
 * to every other (RFC 7523 3: the `jti` "MAY be used by implementations requiring message
 * de-duplication for one-time use assertions"). The library's own marker is a KV read then a
 * write, which two locations can both pass at once (its guide says so:
 * node_modules/@cloudflare/workers-oauth-provider/docs/advanced-configuration.md); an object's
 * storage is strongly consistent and its calls run one at a time, so here they cannot.
 * The object forgets the assertion once it could no longer be accepted anyway (its `exp`, the
 * clock skew allowed, and a margin), with an alarm, so nothing is kept for ever.
 */
import { DurableObject } from 'cloudflare:workers';
import type { WorkerEnv } from '../mcp/internal.js';

/** The object of one assertion: `use` answers true once. src/index.ts exports it (`export { McpAssertion } from 'mcp-worker-framework/signin'`). */
export class McpAssertion extends DurableObject<WorkerEnv> {
  /** True the first time it is called, false after; `forgetAt` (epoch seconds): when the assertion can no longer be accepted. */
  async use(forgetAt: number): Promise<boolean> {
    const { kv } = this.ctx.storage;
    if (kv.get('used') !== undefined) return false;
    kv.put('used', forgetAt);
    await this.ctx.storage.setAlarm(forgetAt * 1000);
    return true;
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
