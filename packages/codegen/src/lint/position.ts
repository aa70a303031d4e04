import type { ts } from 'ts-morph';

/** Offsets of the `\n`s of each file's text, found once per parsed text. */
const newlinesByText = new WeakMap<ts.SourceFile, number[]>();

/**
 * The 1-based line and column of a position, exactly as ts-morph's `getLineAndColumnAtPos`
 * computes them, without its scan from the start of the file on every call.
 */
export function lineAndColumnOf(file: ts.SourceFile, pos: number): { line: number; column: number } {
  const text = file.text;
  let newlines = newlinesByText.get(file);
  if (!newlines) {
    newlines = [];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines.push(i);
    newlinesByText.set(file, newlines);
  }
  let low = 0;
  let high = newlines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (newlines[middle] < pos) low = middle + 1;
    else high = middle;
  }
  let lineStart = pos;
  while (lineStart > 0 && text[lineStart - 1] !== '\n' && text[lineStart - 1] !== '\r') lineStart--;
  return { line: low + 1, column: pos - lineStart + 1 };
}
