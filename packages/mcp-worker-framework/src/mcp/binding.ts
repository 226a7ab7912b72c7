/**
 * A binding of `env` by the name the deployment gives it in wrangler.toml: a fork may rename one
 * or leave it out, so a binding is looked up by name and checked for what it must be before it is
 * used (the feature that needs it then fails closed, naming it), never cast to what it should be.
 */
import type { WorkerEnv } from './env.js';

/** What `env` holds under `name`, when `is` says it is what the caller needs; undefined when nothing, or something else, is bound there. */
export function binding<T>(env: WorkerEnv, name: string, is: (value: unknown) => value is T): T | undefined {
  const value: unknown = Reflect.get(env, name);
  return is(value) ? value : undefined;
}

/**
 * A Durable Object namespace whose stubs answer `Api`, the methods its class serves over Workers
 * RPC, each taking and giving plain data. (workers-types maps a class's methods through its RPC
 * types, which recursive JSON makes too deep to check; for plain data this says the same.)
 */
export interface DurableObjects<Api> {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): Remote<Api>;
}

/** `Api` called over RPC: every method answers a promise. */
export type Remote<Api> = {
  readonly [Name in keyof Api]: Api[Name] extends (...args: infer Args) => infer Answer
    ? (...args: Args) => Promise<Awaited<Answer>>
    : never;
};

/** A Durable Object namespace (`[[durable_objects.bindings]]`) whose class serves `Api`. */
export const isDurableObjects = <Api>(value: unknown): value is DurableObjects<Api> =>
  typeof value === 'object' && value !== null && 'idFromName' in value && typeof value.idFromName === 'function';

/** A Rate Limiting binding (`[[ratelimits]]`). */
export const isRateLimit = (value: unknown): value is RateLimit =>
  typeof value === 'object' && value !== null && 'limit' in value && typeof value.limit === 'function';
