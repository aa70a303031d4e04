import { modelMessages } from '../execution/messages';
import { describeType } from '../execution/echo';
import { FORBIDDEN_KEY } from './forbidden-key';
import { rememberKeys } from './listed-keys';

/** Bounds on a tool's input, checked before any parsing work. */
export interface InputLimits {
  /** Size of the input as JSON, in UTF-8 bytes (escapes not counted). Default 2,000,000. */
  maxInputBytes: number;
  /** Object keys in the whole input. Default 20,000. */
  maxKeys: number;
  /** Nesting of objects and arrays; the input object itself is level 1. Default 64. */
  maxDepth: number;
  /** Elements of any one array. Default 20,000. */
  maxArrayLength: number;
  /** Characters of any one string, keys included. Default 1,000,000. */
  maxStringLength: number;
}

/**
 * Far beyond what a model writes in one turn (its output is a few hundred kilobytes at most) or
 * a real tool takes, yet small enough that validating an input at the limits stays well under a
 * second. A 17-level tree of objects in arrays (35 levels of JSON nesting) passes.
 */
export const DEFAULT_INPUT_LIMITS: InputLimits = {
  maxInputBytes: 2_000_000,
  maxKeys: 20_000,
  maxDepth: 64,
  maxArrayLength: 20_000,
  maxStringLength: 1_000_000,
};

interface Frame {
  value: object;
  depth: number;
  parent: Frame | undefined;
  key: string | number | undefined;
}

/**
 * Checks that the model's input is a JSON object within `limits` and free of `__proto__` keys,
 * in one pass that stops at the first limit hit (two when its bytes near the limit or pass it):
 * its cost is linear in the input and bounded by the limits, whatever was sent. Returns the
 * one-line message for the model, or `undefined` when the input may go on.
 */
export function checkPlainInput(input: unknown, limits: InputLimits): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return modelMessages.notAnObject(input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input);
  }
  const flat = checkFlatInput(input as Record<string, unknown>, limits);
  if (flat !== NESTED) return flat;
  // Encoding every key and string (and writing every number) to count its bytes was most of the
  // walk's time: an upper bound decides an input within the byte limit, and only one past the
  // bound is walked again, counting exactly, so the verdict is always the exact count's.
  const bounded = walkInput(input, limits, false);
  return bounded === PAST_BOUND ? (walkInput(input, limits, true) as string | undefined) : bounded;
}

/** What a walk that bounds the bytes returns when the bound passes the limit: only the exact count can tell. */
const PAST_BOUND = Symbol('past bound');

/**
 * The walk over every value, stopping at the first limit hit. With `exact`, the bytes are the
 * JSON's UTF-8; without, they are bounded from above as `checkFlatInput` bounds them, and a bound
 * past the limit ends the walk with `PAST_BOUND` instead of a verdict. Any other refusal comes
 * first in both, since the exact count is never above the bound.
 */
function walkInput(input: object, limits: InputLimits, exact: boolean): string | undefined | typeof PAST_BOUND {
  let bytes = 0;
  let keys = 0;
  const pending: Frame[] = [{ value: input, depth: 1, parent: undefined, key: undefined }];

  // Returns a message when `value`, found under `key` of `frame`, breaks a limit; queues objects.
  const visit = (value: unknown, frame: Frame, key: string | number): string | typeof PAST_BOUND | undefined => {
    switch (typeof value) {
      case 'string':
        if (value.length > limits.maxStringLength) return modelMessages.stringTooLong(pathOf(frame, key), limits.maxStringLength);
        bytes += (exact ? Buffer.byteLength(value) : 3 * value.length) + 2;
        return undefined;
      case 'number':
        bytes += exact ? String(value).length : MAX_NUMBER_CHARS;
        return undefined;
      case 'boolean':
        bytes += value ? 4 : 5;
        return undefined;
      case 'undefined':
        return undefined;
      case 'object':
        if (value === null) {
          bytes += 4;
          return undefined;
        }
        if (frame.depth >= limits.maxDepth) return modelMessages.tooDeep(limits.maxDepth);
        pending.push({ value, depth: frame.depth + 1, parent: frame, key });
        return undefined;
      default:
        return modelMessages.notJson(pathOf(frame, key), describeType(value));
    }
  };

  // Checked after every value, so no more than one string past the limit is ever measured.
  const overBytes = () => (bytes > limits.maxInputBytes ? (exact ? modelMessages.tooManyBytes(limits.maxInputBytes) : PAST_BOUND) : undefined);

  while (pending.length > 0) {
    const frame = pending.pop()!;
    const { value } = frame;
    let refused: string | typeof PAST_BOUND | undefined;
    if (Array.isArray(value)) {
      // Only the input itself has no key, and it is not an array.
      if (value.length > limits.maxArrayLength) return modelMessages.arrayTooLong(pathOf(frame.parent, frame.key!), limits.maxArrayLength);
      bytes += 2 + Math.max(value.length - 1, 0);
      let i = 0;
      for (const element of value) {
        refused = visit(element, frame, i++) ?? overBytes();
        if (refused) break;
      }
    } else {
      const own = Object.keys(value);
      keys += own.length;
      if (keys > limits.maxKeys) return modelMessages.tooManyKeys(limits.maxKeys);
      rememberKeys(value, own);
      bytes += 2 + Math.max(own.length - 1, 0);
      for (let i = 0; i < own.length && !refused; i++) {
        const key = own[i];
        if (key === FORBIDDEN_KEY) return modelMessages.forbiddenKey(pathOf(frame, key));
        if (key.length > limits.maxStringLength) return modelMessages.stringTooLong(pathOf(frame, key), limits.maxStringLength);
        bytes += (exact ? Buffer.byteLength(key) : 3 * key.length) + 3;
        refused = visit((value as Record<string, unknown>)[key], frame, key) ?? overBytes();
      }
    }
    refused ??= overBytes();
    if (refused) return refused;
  }
  return undefined;
}

/** `String(n).length` of any number is at most 25 (`-0.0000012345678901234567`); a margin on top. */
const MAX_NUMBER_CHARS = 32;

/** What `checkFlatInput` returns for an input it leaves to the general walk. */
const NESTED = Symbol('nested');

/**
 * The common input, an object of strings, numbers and booleans, checked without the walk's
 * frames: the same limits in the same order, so the verdict is the walk's. Anything else (a
 * nested value, a key or string the walk must name in its message) goes to the walk.
 */
export function checkFlatInput(input: Record<string, unknown>, limits: InputLimits): string | undefined | typeof NESTED {
  const own = Object.keys(input);
  if (own.length > limits.maxKeys) return NESTED;
  // An upper bound of the walk's byte count, with no encoding: a UTF-16 unit is at most 3 bytes
  // of UTF-8 and a number at most 32 characters. Within the limit, so is the exact count; past
  // it, the walk counts exactly.
  let bytes = 2 + Math.max(own.length - 1, 0);
  for (let i = 0; i < own.length; i++) {
    const key = own[i];
    const value = input[key];
    if (key === FORBIDDEN_KEY || key.length > limits.maxStringLength) return NESTED;
    bytes += 3 * key.length + 3;
    switch (typeof value) {
      case 'string':
        if (value.length > limits.maxStringLength) return NESTED;
        bytes += 3 * value.length + 2;
        break;
      case 'number':
        bytes += MAX_NUMBER_CHARS;
        break;
      case 'boolean':
        bytes += value ? 4 : 5;
        break;
      case 'undefined':
        break;
      default:
        return NESTED;
    }
  }
  // Checked once, after the loop: it reads at most maxKeys keys, each in constant time.
  return bytes > limits.maxInputBytes ? NESTED : undefined;
}

/** A key written bare in a path; any other (empty, dotted, spaced) is written `['a.b']`, so the path names one field. */
const BARE_KEY = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** `items[3].name`, `labels['a.b']`: built only for a refusal, by walking up from where it happened. */
function pathOf(frame: Frame | undefined, key: string | number): string {
  const parts: Array<string | number> = [key];
  for (let f = frame; f && f.key !== undefined; f = f.parent) parts.push(f.key);
  let path = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i];
    if (typeof part === 'number') path += `[${part}]`;
    else if (BARE_KEY.test(part)) path += path ? `.${part}` : part;
    else path += `['${part.replace(/[\\']/g, '\\$&')}']`;
  }
  return path;
}
