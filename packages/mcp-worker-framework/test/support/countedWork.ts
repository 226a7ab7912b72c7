/**
 * Validation work, counted rather than timed (CI shares two cores): every read the validator and
 * the code around it make of the schema, of the value checked, and of the errors the validator
 * hands back. A test wraps the schema and the value with `counted`, and replaces the validator's
 * module by `countingValidator` (the errors it returns are counted as they are read):
 *
 *   vi.mock('@cfworker/json-schema', async (original) =>
 *     (await import('../support/countedWork')).countingValidator(await original()));
 *
 * Past `work.limit` a read throws `TooMuchWork`, so code whose work runs away fails at once
 * instead of running for minutes.
 */
import type * as JsonSchema from '@cfworker/json-schema';

export class TooMuchWork extends Error {}

/**
 * The bound a check's work is held to: reads per character of the value's JSON, plus a constant (the
 * schema's lookup, built on first use, and the second check of a small failing value). Measured on
 * test/fixtures/validation.ts: a valid value takes up to 28 reads per character (a union's three
 * branches tried on every item), one that fails fewer (the check stops at its first failing item).
 */
export const READS_PER_CHAR = 60;
export const READS_FIXED = 200_000;

export const work = { reads: 0, limit: Number.POSITIVE_INFINITY };

/** Starts a count that may not pass `limit` reads. */
export function countFrom(limit = Number.POSITIVE_INFINITY): void {
  work.reads = 0;
  work.limit = limit;
}

const read = () => {
  if (++work.reads > work.limit) throw new TooMuchWork(`more than ${work.limit} reads`);
};

const proxies = new WeakMap<object, object>();

/** `value` (and everything reached through it) with every read counted. */
export function counted<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  let proxy = proxies.get(value);
  if (!proxy) {
    proxy = new Proxy(value, {
      get: (target, key, receiver) => (read(), counted(Reflect.get(target, key, receiver))),
      has: (target, key) => (read(), Reflect.has(target, key)),
      getOwnPropertyDescriptor: (target, key) => (read(), Reflect.getOwnPropertyDescriptor(target, key)),
      ownKeys(target) {
        const keys = Reflect.ownKeys(target);
        for (const _ of keys) read();
        return keys;
      },
    });
    proxies.set(value, proxy);
  }
  return proxy as T;
}

/** The validator's module, its results' errors counted as they are read. */
export function countingValidator(actual: typeof JsonSchema): typeof JsonSchema {
  const countedResult = ({ valid, errors }: JsonSchema.ValidationResult) => ({ valid, errors: counted(errors) });
  class Validator extends actual.Validator {
    override validate(instance: unknown) {
      return countedResult(super.validate(instance));
    }
  }
  const validate: typeof actual.validate = (...args) => countedResult(actual.validate(...args));
  return { ...actual, Validator, validate };
}
