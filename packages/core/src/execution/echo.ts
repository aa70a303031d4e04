/** The longest name, id or path a message echoes back to the model. */
const MAX_ECHO_CHARS = 64;

/**
 * A value from the model (a tool name, an id, a field path) as it may appear inside a message:
 * short, and never code of the value itself run. A 1 MB tool name is not sent back whole, and a
 * Symbol or an object where a string belongs is described, not converted.
 */
export function echo(value: unknown): string {
  if (typeof value !== 'string') return describeType(value);
  if (value.length <= MAX_ECHO_CHARS) return value;
  let end = MAX_ECHO_CHARS;
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${value.slice(0, end)}…(${value.length} chars)`;
}

/** What a value is, in a word or two, without touching it. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'object':
      return 'an object';
    case 'undefined':
      return 'undefined';
    default:
      return `a ${typeof value}`;
  }
}

/** `Array.isArray`, which throws on a revoked Proxy, answering "no" instead. */
export function isArray(value: unknown): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}
