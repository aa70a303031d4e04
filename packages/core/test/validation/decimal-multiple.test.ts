import fc from 'fast-check';
import { isDecimalMultiple } from '../../src/validation/decimal-multiple';

describe('multipleOf, exact on the decimal the JSON text states', () => {
  it('a number with k decimals is a multiple of 10^-k (19.99 of 0.01), whatever binary fraction it parses to', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 8 }), (n, k) => {
        const value = Number(`${n}e-${k}`);
        expect(isDecimalMultiple(value, Number(`1e-${k}`))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('one more non-zero decimal is not', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 6 }), (n, digit, k) => {
        const value = Number(`${n}${digit}e-${k + 1}`);
        expect(isDecimalMultiple(value, Number(`1e-${k}`))).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    [19.99, 0.01, true], [1, 0.01, true], [10, 0.01, true], [0.5, 0.01, true], [0.3, 0.1, true], [4.5, 1.5, true],
    [1e21, 5, true], [1.5e-7, 5e-8, true], [0.005, 0.01, false], [7, 2, false], [1e21, 3, false],
  ])('%p is a multiple of %p: %p', (value, divisor, expected) => {
    expect(isDecimalMultiple(value, divisor)).toBe(expected);
  });
});
