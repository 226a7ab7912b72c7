/** The size of a JSON text a row stores or a body carries (src/mcp/bytesOver.ts), in UTF-8 bytes. */
import { describe, expect, it } from 'vitest';
import { bytesOver } from '../../../src/mcp/bytesOver';

describe('bytes over a limit', () => {
  it('measures JSON in UTF-8 bytes, the unit of the row it is stored in', () => {
    expect(bytesOver('x'.repeat(1000), 1000)).toBeUndefined();
    expect(bytesOver('x'.repeat(1001), 1000)).toBe(1001);
    // 400 characters of three bytes each: under 1000 characters, 1200 bytes.
    expect(bytesOver('€'.repeat(400), 1000)).toBe(1200);
    expect(bytesOver('€'.repeat(333), 1000)).toBeUndefined();
  });
});
