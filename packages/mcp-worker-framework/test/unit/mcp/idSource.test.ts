import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idSource } from '../../../src/mcp/idSource';

describe('idSource', () => {
  it('finds the source JSON.parse reads as the id, whatever surrounds it', () => {
    const BIG = '98765432109876543210';
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
        fc.nat(6),
        fc.constantFrom('', ' ', '\n\t'),
        (members, at, space) => {
          const entries = Object.entries(members).filter(([key]) => key !== 'id' && key !== '__proto__');
          entries.splice(Math.min(at, entries.length), 0, ['id', 'ID']);
          const text = `{${space}${entries.map(([key, value]) => `${JSON.stringify(key)}${space}:${space}${key === 'id' ? BIG : JSON.stringify(value, null, space ? 1 : 0)}`).join(`${space},${space}`)}${space}}`;
          expect(JSON.parse(text).id).toBe(Number(BIG));
          expect(idSource(text)).toBe(BIG);
        },
      ),
      { numRuns: 300, seed: 20 },
    );
  });
});
