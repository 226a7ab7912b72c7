/** A binding read by name and checked for what it must be (src/mcp/binding.ts): anything else is no binding. */
import { describe, expect, it } from 'vitest';
import { binding, isDurableObjects, isRateLimit } from '../../../src/mcp/binding';
import type { WorkerEnv } from '../../../src/mcp/env';

const limiter = { limit: async () => ({ success: true }) };
const namespace = { idFromName: (name: string) => ({ name }), get: () => ({}) };
const env = { LIMITER: limiter, OBJECTS: namespace, TEXT: 'a setting' } as unknown as WorkerEnv;

describe('binding', () => {
  it('gives what env holds under the name, or nothing when it is not what the caller needs', () => {
    expect(binding(env, 'LIMITER', isRateLimit)).toBe(limiter);
    expect(binding(env, 'OBJECTS', isDurableObjects)).toBe(namespace);
    expect(binding(env, 'OBJECTS', isRateLimit)).toBeUndefined();
    expect(binding(env, 'TEXT', isDurableObjects)).toBeUndefined();
    expect(binding(env, 'MISSING', isRateLimit)).toBeUndefined();
  });
});
