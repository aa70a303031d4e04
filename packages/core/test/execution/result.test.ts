import { shapeResult, type ResultLimits } from '../../src/execution/result';

const chars = (maxChars: number): ResultLimits => ({ maxChars, maxMediaBlocks: 20, maxMediaChars: 1_000_000 });

describe('shapeResult cuts long output without breaking it', () => {
  it('cuts at maxChars and says how much was left out', () => {
    expect(shapeResult('abcdef', chars(4))).toBe('abcd\n[truncated: 2 more characters not shown]');
  });

  it('never splits a surrogate pair: the cut moves one character earlier', () => {
    // '😀' is two UTF-16 units; a cut after 4 units would keep only its first half.
    expect(shapeResult('abc😀def', chars(4))).toBe('abc\n[truncated: 5 more characters not shown]');
  });

  it('shares one budget among text blocks without splitting a pair either', () => {
    const shaped = shapeResult(
      [
        { type: 'text', text: 'ab' },
        { type: 'text', text: 'c😀d' },
      ],
      chars(4),
    );
    expect(shaped).toEqual([
      { type: 'text', text: 'ab' },
      { type: 'text', text: 'c\n[truncated: 3 more characters not shown]' },
    ]);
  });
});
