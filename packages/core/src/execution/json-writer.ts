/** Characters `JSON.stringify` escapes in a string: one without any is written between quotes as it is. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Below this length a loop over the characters is quicker than the regular expression. */
const SHORT_STRING = 64;

/** Shapes (key lists) one writer keeps: a tool returns one or a few. */
const MAX_SHAPES = 4;
/** Keys of an object written from its parts; a larger object is the engine's. */
const MAX_KEYS = 32;
/** Characters of the quoted keys of one shape, so a writer holds little whatever a tool returns. */
const MAX_SHAPE_CHARS = 1_024;

/** The keys of an object, in order, with the text between its values in the JSON text. */
interface Shape {
  keys: readonly string[];
  /**
   * What precedes value `i`: `{"key":` for the first key, `,"key":` for the others, with the
   * closing quote of a string before it and the opening quote of a string value folded in, at
   * `joints[4 * i + 2 * (the value before is a string) + (this one is)]`: a string is then one
   * piece of the text instead of three, and each piece appended makes a string.
   */
  joints: readonly string[];
  /**
   * The short string last written as it is for value `i`: a value that repeats (a status, a
   * currency, a constant of the tool's) then takes one comparison instead of a look at each of its
   * characters; a new one pays that comparison on top, up to its first difference. Short ones
   * only, so a writer holds little.
   */
  asIs: Array<string | undefined>;
}

/**
 * The JSON text of a value, exactly as `JSON.stringify(value)` writes it, for one tool's results.
 * A tool answers with objects of the same few shapes, and for a small one (a status, a record)
 * the engine's `JSON.stringify` costs more in getting started than in writing: so a plain object
 * whose values are all strings, finite numbers, booleans or null, with the keys of a shape seen
 * before, is written from its parts, each key quoted once per writer. Anything else (nested
 * values, `undefined`, a `toJSON`, a class instance, a boxed primitive, more than a few shapes) is
 * `JSON.stringify`'s, and so is a string with a character it escapes.
 */
export class JsonWriter {
  private readonly shapes: Shape[] = [];
  /** The shape the last object written had: the one tried first. */
  private last: Shape | undefined = undefined;

  write(value: unknown): string | undefined {
    if (typeof value === 'object' && value !== null) {
      const text = this.flat(value as Record<string, unknown>);
      if (text !== undefined) return text;
    }
    return JSON.stringify(value);
  }

  /** The text of a flat plain object of a known shape; `undefined` for anything else. */
  private flat(value: Record<string, unknown>): string | undefined {
    // A boxed primitive or a class instance is the engine's: its text is not its own keys'.
    const prototype: unknown = Object.getPrototypeOf(value);
    if ((prototype !== Object.prototype && prototype !== null) || value.toJSON !== undefined) return undefined;
    const last = this.last;
    const text = last === undefined ? undefined : writeFlat(value, last);
    if (text !== undefined) return text;
    // Another shape, or a value the writer leaves to the engine: the keys tell which. An object of
    // no shape the writer keeps clears `last`, so the next one goes to its keys at once: `for...in`
    // over a large object (a hash table in V8) sorts all its keys before the first comparison.
    const shape = this.shapeOf(Object.keys(value));
    this.last = shape;
    if (shape === undefined || shape === last) return undefined;
    return writeFlat(value, shape);
  }

  private shapeOf(keys: readonly string[]): Shape | undefined {
    const { shapes } = this;
    for (let s = 0; s < shapes.length; s++) if (sameKeys(shapes[s].keys, keys)) return shapes[s];
    if (shapes.length >= MAX_SHAPES || keys.length === 0 || keys.length > MAX_KEYS) return undefined;
    const prefixes = keys.map((key, i) => `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`);
    if (prefixes.reduce((chars, prefix) => chars + prefix.length, 0) > MAX_SHAPE_CHARS) return undefined;
    const joints = prefixes.flatMap((prefix) => [prefix, `${prefix}"`, `"${prefix}`, `"${prefix}"`]);
    const shape: Shape = { keys, joints, asIs: keys.map(() => undefined) };
    shapes.push(shape);
    return shape;
  }
}

/**
 * The text of `value` when its enumerable keys are exactly `shape`'s, in order, and every value is
 * one the writer writes; `undefined` otherwise. The keys are walked with `for...in`, which lists
 * what `Object.keys` lists for an object whose prototype is `Object.prototype` or null (plus any
 * enumerable key added to `Object.prototype`, which then fails the comparison): V8 reads each value
 * from the object's enumeration cache, without making the array of keys.
 */
function writeFlat(value: Record<string, unknown>, shape: Shape): string | undefined {
  const { keys, joints, asIs } = shape;
  let text = '';
  // 1 when the value written last is a string whose closing quote is still to come.
  let open = 0;
  let i = 0;
  for (const key in value) {
    if (key !== keys[i]) return undefined;
    const item = value[key];
    let piece: string;
    let quoted = 0;
    switch (typeof item) {
      case 'string':
        if (knownAsIs(asIs, i, item)) {
          piece = item;
          quoted = 1;
        } else {
          piece = JSON.stringify(item);
        }
        break;
      case 'number':
        // What JSON.stringify writes for a number: its shortest decimal form, `null` when not finite.
        piece = Number.isFinite(item) ? String(item) : 'null';
        break;
      case 'boolean':
        piece = item ? 'true' : 'false';
        break;
      case 'object':
        if (item !== null) return undefined;
        piece = 'null';
        break;
      default:
        // `undefined`, a function or a symbol (left out by JSON.stringify), a BigInt (refused by it).
        return undefined;
    }
    text += joints[4 * i + 2 * open + quoted];
    text += piece;
    open = quoted;
    i++;
  }
  if (i !== keys.length) return undefined;
  return open === 1 ? `${text}"}` : `${text}}`;
}

function sameKeys(known: readonly string[], keys: readonly string[]): boolean {
  if (known.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (known[i] !== keys[i]) return false;
  return true;
}

/**
 * `writtenAsIs(item)`, answered by one comparison when `item` is the short string last written as
 * it is at `i`; a short one written as it is becomes that string.
 */
function knownAsIs(asIs: Array<string | undefined>, i: number, item: string): boolean {
  if (item === asIs[i]) return true;
  if (!writtenAsIs(item)) return false;
  if (item.length < SHORT_STRING) asIs[i] = item;
  return true;
}

/** Whether `JSON.stringify` writes `text` between quotes with no character escaped. */
function writtenAsIs(text: string): boolean {
  if (text.length >= SHORT_STRING) return !ESCAPED.test(text);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Controls, `"` and `\`, and surrogates (a lone one is escaped; a pair is left to the engine).
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}
