/**
 * Why `value` cannot be a key of a run (a run id, an owner, a `tool_use_id`), or `undefined`.
 * Postgres refuses a NUL in `text`, and a lone surrogate has no UTF-8 form, so a driver would
 * replace it with U+FFFD and two different ids would meet in one row. Keys like these are
 * refused before they reach a store; any other text (inputs, results) is stored as it is.
 */
export function keyProblem(value: string): string | undefined {
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
