// The reduction the dispatch and adapter goals read: each path's draws, one per process, to the
// least (the goals) and the median (beside it). A slip here would move every goal line at once.
import fc from 'fast-check';
import { roundsPerCall, type PerCall } from '../src/lib/own-processes';

describe('roundsPerCall', () => {
  it('takes the least of valid and of invalid each on its own, from different rounds', () => {
    const draws: PerCall[] = [
      { valid: 0.41, invalid: 1.02 },
      { valid: 0.37, invalid: 1.31 },
      { valid: 0.66, invalid: 0.98 },
    ];
    expect(roundsPerCall(draws)).toEqual({ least: { valid: 0.37, invalid: 0.98 }, median: { valid: 0.41, invalid: 1.02 } });
  });

  it('reads the median of an even number of rounds as the mean of the middle two', () => {
    const draws: PerCall[] = [
      { valid: 4, invalid: 40 },
      { valid: 1, invalid: 10 },
      { valid: 3, invalid: 30 },
      { valid: 2, invalid: 20 },
    ];
    expect(roundsPerCall(draws).median).toEqual({ valid: 2.5, invalid: 25 });
  });

  it('refuses a path with no rounds instead of reading Infinity', () => {
    expect(() => roundsPerCall([])).toThrow(new RangeError('a path with no rounds: time it at least once'));
  });

  it('is one of the draws, at most the median, and the same whichever round came first', () => {
    const time = fc.double({ min: 0.01, max: 100, noNaN: true });
    const draws = fc.array(fc.record({ valid: time, invalid: time }), { minLength: 1, maxLength: 9 });
    fc.assert(
      fc.property(draws, fc.nat(), (rounds, shift) => {
        const read = roundsPerCall(rounds);
        for (const measure of ['valid', 'invalid'] as const) {
          const values = rounds.map((r) => r[measure]);
          expect(values).toContain(read.least[measure]);
          expect(values.every((v) => v >= read.least[measure])).toBe(true);
          expect(read.least[measure]).toBeLessThanOrEqual(read.median[measure]);
          expect(read.median[measure]).toBeLessThanOrEqual(Math.max(...values));
          expect(values.filter((v) => v < read.median[measure]).length).toBeLessThanOrEqual(values.length / 2);
          expect(values.filter((v) => v > read.median[measure]).length).toBeLessThanOrEqual(values.length / 2);
        }
        const rotated = rounds.map((_, i) => rounds[(i + shift) % rounds.length]);
        expect(roundsPerCall(rotated)).toEqual(read);
      }),
    );
  });
});
