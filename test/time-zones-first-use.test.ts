/** The example time-zone resources ask the runtime for its zones on first use, not at module load, and once. */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => vi.restoreAllMocks());

describe('src/resources/time-zones.ts', () => {
  it('does not list the time zones at module load, and lists them once for every later read and completion', async () => {
    const asked = vi.spyOn(Intl, 'supportedValuesOf');
    vi.resetModules();
    const { timeZones, timeInZone } = await import('../src/resources/time-zones');
    expect(asked).not.toHaveBeenCalled();
    const read = (await timeZones.read({} as never)) as { contents: { text: string }[] };
    expect(read.contents[0]?.text.split('\n')).toContain('Europe/Paris');
    expect(asked).toHaveBeenCalledTimes(1);
    expect(timeInZone.complete?.zone?.('europe/par', {} as never)).toEqual(['Europe/Paris']);
    expect(asked).toHaveBeenCalledTimes(1);
  });
});
