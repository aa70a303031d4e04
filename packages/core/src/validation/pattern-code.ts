/** Characters with a meaning of their own in a `u` pattern; escaped, each stands for itself. */
const SYNTAX = '^$\\.*+?()[]{}|/';
const FIRST_PRINTABLE = 0x20;
const LAST_PRINTABLE = 0x7e;

/** A set of ASCII characters, one bit per code. */
type CharSet = Uint32Array;

interface Item {
  set: CharSet;
  min: number;
  max: number;
}

/**
 * The code of an object whose `test` is exactly `new RegExp(source, flags).test` on strings, for
 * the patterns most tool inputs use (an identifier, a code, a number); `undefined` for any other.
 * tools-codegen writes it into a compiled check in place of the `RegExp`: V8 compiles a `RegExp`
 * on its first execution and again to machine code on its second, wherever that falls (on a
 * user's request, in whichever tool shares the pattern), where this is a few lines of plain code.
 *
 * Taken: `flags` is `u` and `source` is anchored at both ends (`^…$`) with, between, only
 * printable ASCII characters, `\d`, `\w`, escaped syntax characters, and positive classes of
 * those and of ranges, each with an optional greedy quantifier (`?`, `*`, `+`, `{n}`, `{n,}`,
 * `{n,m}`). One more condition makes a single greedy pass exact: an item that may repeat a varying
 * number of times shares no character with the items after it up to the first one that must match
 * something. A `u` pattern reads a string by code points, but no set holds one outside ASCII, so
 * reading code units (a surrogate is not ASCII either) decides the same.
 */
export function patternCode(source: string, flags: string): string | undefined {
  if (flags !== 'u') return undefined;
  const items = parseAnchored(source);
  if (items === undefined || !greedyIsExact(items)) return undefined;
  let body = 'const n=s.length;let i=0,c=0,b=0,e=0;';
  for (const { set, min, max } of items) {
    const member = memberTest(set);
    if (min === 1 && max === 1) {
      body += `if(i>=n)return false;c=s.charCodeAt(i);if(!(${member}))return false;i++;`;
      continue;
    }
    body += `b=i;e=${max === Infinity ? 'n' : `Math.min(n,i+${max})`};while(i<e){c=s.charCodeAt(i);if(!(${member}))break;i++;}`;
    if (min > 0) body += `if(i-b<${min})return false;`;
  }
  return `{test(s){${body}return i===n;}}`;
}

/** `set` as a condition on the code unit `c`: its runs of consecutive codes. */
function memberTest(set: CharSet): string {
  const runs: string[] = [];
  for (let code = 0; code <= LAST_PRINTABLE; code++) {
    if (!has(set, code)) continue;
    const from = code;
    // No set holds a code past the last printable one: `has` is false there and ends the run.
    while (has(set, code + 1)) code++;
    runs.push(from === code ? `c===${from}` : `c>=${from}&&c<=${code}`);
  }
  return runs.map((run) => `(${run})`).join('||');
}

function has(set: CharSet, code: number): boolean {
  return (set[code >> 5] & (1 << (code & 31))) !== 0;
}

function greedyIsExact(items: readonly Item[]): boolean {
  for (let i = 0; i < items.length; i++) {
    if (items[i].min === items[i].max) continue;
    for (let j = i + 1; j < items.length; j++) {
      if (overlaps(items[i].set, items[j].set)) return false;
      if (items[j].min > 0) break;
    }
  }
  return true;
}

function overlaps(a: CharSet, b: CharSet): boolean {
  for (let w = 0; w < 4; w++) if ((a[w] & b[w]) !== 0) return true;
  return false;
}

function parseAnchored(source: string): Item[] | undefined {
  // One character cannot be both anchors: `^` and `$` alone are refused here too.
  if (source[0] !== '^' || source[source.length - 1] !== '$') return undefined;
  // A `$` escaped by the backslash before it leaves that backslash at the body's end, an escape of nothing.
  const parser = new PatternParser(source.slice(1, -1));
  const items: Item[] = [];
  while (!parser.done()) {
    const set = parser.atom();
    if (set === undefined) return undefined;
    const repeat = parser.quantifier();
    if (repeat === undefined) return undefined;
    items.push({ set, ...repeat });
  }
  return items;
}

/** Reads the body of an anchored pattern, atom by atom; `undefined` at the first thing outside the subset. */
class PatternParser {
  private at = 0;

  constructor(private readonly body: string) {}

  done(): boolean {
    return this.at >= this.body.length;
  }

  atom(): CharSet | undefined {
    const c = this.body[this.at];
    if (c === '[') return this.charClass();
    if (c === '\\') {
      const escaped = this.escape(false);
      return typeof escaped === 'number' ? setOf(escaped) : escaped;
    }
    if (SYNTAX.includes(c) && c !== '/') return undefined;
    const code = printable(c);
    if (code === undefined) return undefined;
    this.at++;
    return setOf(code);
  }

  /**
   * `{min, max}` of the quantifier at the cursor, `{1, 1}` when there is none; `undefined` for a
   * malformed one. A lazy one (`+?`) leaves its `?` to be read as an atom, which refuses it.
   */
  quantifier(): { min: number; max: number } | undefined {
    const c = this.body[this.at];
    if (c === '{') return this.braces();
    const repeat = c === '?' ? { min: 0, max: 1 } : c === '*' ? { min: 0, max: Infinity } : c === '+' ? { min: 1, max: Infinity } : undefined;
    if (repeat === undefined) return { min: 1, max: 1 };
    this.at++;
    return repeat;
  }

  /** `{n}`, `{n,}` or `{n,m}` at the cursor. */
  private braces(): { min: number; max: number } | undefined {
    this.at++;
    const min = this.number();
    if (min === undefined) return undefined;
    let max = min;
    if (this.body[this.at] === ',') {
      this.at++;
      max = this.body[this.at] === '}' ? Infinity : (this.number() ?? -1);
    }
    if (this.body[this.at] !== '}' || max < min) return undefined;
    this.at++;
    return { min, max };
  }

  /** The decimal digits at the cursor, when there are one to nine of them; `undefined` otherwise. */
  private number(): number | undefined {
    const from = this.at;
    while (this.body.charCodeAt(this.at) >= 0x30 && this.body.charCodeAt(this.at) <= 0x39) this.at++;
    const digits = this.at - from;
    return digits === 0 || digits > 9 ? undefined : Number(this.body.slice(from, this.at));
  }

  /** An escape at the cursor: a character's code, the set of `\d` or `\w`, or `undefined`. */
  private escape(inClass: boolean): number | CharSet | undefined {
    // A backslash at the end leaves `c` undefined: no comparison below holds for it (`SYNTAX` holds no "undefined").
    const c = this.body[this.at + 1];
    this.at += 2;
    if (c === 'd') return rangeSet([['0', '9']]);
    if (c === 'w') return rangeSet([['a', 'z'], ['A', 'Z'], ['0', '9'], ['_', '_']]);
    if (SYNTAX.includes(c) || (inClass && c === '-')) return c.charCodeAt(0);
    return undefined;
  }

  /** A positive class of ASCII characters, ranges, `\d` and `\w`; the cursor is on its `[`. */
  private charClass(): CharSet | undefined {
    this.at++;
    if (this.body[this.at] === '^' || this.body[this.at] === ']') return undefined;
    const set = new Uint32Array(4);
    let first = true;
    while (this.body[this.at] !== ']') {
      // An unclosed class ends where `classAtom` finds no character.
      const start = this.classAtom(first);
      if (start === undefined) return undefined;
      first = false;
      if (this.body[this.at] === '-' && this.body[this.at + 1] !== ']') {
        this.at++;
        const end = this.classAtom(false);
        if (typeof start !== 'number' || typeof end !== 'number' || end < start) return undefined;
        for (let code = start; code <= end; code++) add(set, code);
      } else if (typeof start === 'number') add(set, start);
      else for (let w = 0; w < 4; w++) set[w] |= start[w];
    }
    this.at++;
    return set;
  }

  /** One character or escape of a class; a bare `-` only first or last, where it stands for itself. */
  private classAtom(first: boolean): number | CharSet | undefined {
    const c = this.body[this.at];
    if (c === '\\') return this.escape(true);
    if (c === '-' && !first && this.body[this.at + 1] !== ']') return undefined;
    const code = printable(c);
    if (code === undefined) return undefined;
    this.at++;
    return code;
  }
}

function printable(c: string | undefined): number | undefined {
  if (c === undefined) return undefined;
  const code = c.charCodeAt(0);
  return code >= FIRST_PRINTABLE && code <= LAST_PRINTABLE ? code : undefined;
}

function add(set: CharSet, code: number): void {
  set[code >> 5] |= 1 << (code & 31);
}

function setOf(code: number): CharSet {
  const set = new Uint32Array(4);
  add(set, code);
  return set;
}

function rangeSet(ranges: ReadonlyArray<readonly [string, string]>): CharSet {
  const set = new Uint32Array(4);
  for (const [from, to] of ranges) for (let code = from.charCodeAt(0); code <= to.charCodeAt(0); code++) add(set, code);
  return set;
}
