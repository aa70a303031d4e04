/**
 * The longest key, in UTF-16 units: at most 765 bytes of UTF-8, so a run id and a `tool_use_id`
 * together stay well inside what a Postgres btree entry holds (about 2,700 bytes). The API's ids
 * are a few dozen characters.
 */
export const MAX_KEY_LENGTH = 255;

/**
 * Why `value` cannot be a key of a run (a run id, an owner, a `tool_use_id`), or `undefined`:
 * text no store can hold (`textProblem`), or longer than a store's index takes, which would fail
 * the journal write only after the call ran, on every attempt. Keys like these are refused before
 * they reach a store; any other text (inputs, results) is stored as it is.
 */
export function keyProblem(value: string): string | undefined {
  const problem = textProblem(value);
  if (problem) return problem;
  if (value.length > MAX_KEY_LENGTH) return `is ${value.length} characters long, more than the ${MAX_KEY_LENGTH} a key may have`;
  return undefined;
}

/**
 * Why `value` cannot be stored as text as it is, or `undefined`. Postgres refuses a NUL in
 * `text`, and a lone surrogate has no UTF-8 form, so a driver would replace it with U+FFFD (and
 * two different ids would meet in one row).
 */
export function textProblem(value: string): string | undefined {
  if (value.includes('\0')) return 'holds a NUL character (U+0000)';
  if (!isWellFormed(value)) return 'holds a lone surrogate (invalid UTF-16)';
  return undefined;
}

export function isStorableKey(value: string): boolean {
  return keyProblem(value) === undefined;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `String.prototype.isWellFormed`, which the ES2022 library this package targets does not type. */
function isWellFormed(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}
