/** The sizes a task keeps (src/tasks/taskLimits.ts), measured in the unit of the row that stores them. */
import { describe, expect, it } from 'vitest';
import { bytesOver } from '../../../src/tasks/taskLimits';

describe('sizes a task keeps', () => {
  it('measures JSON in UTF-8 bytes, the unit of the row it is stored in', () => {
    expect(bytesOver('x'.repeat(1000), 1000)).toBeUndefined();
    expect(bytesOver('x'.repeat(1001), 1000)).toBe(1001);
    // 400 characters of three bytes each: under 1000 characters, 1200 bytes.
    expect(bytesOver('€'.repeat(400), 1000)).toBe(1200);
    expect(bytesOver('€'.repeat(333), 1000)).toBeUndefined();
  });
});
