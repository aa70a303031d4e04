/** Throws a `RangeError` naming `what` unless `value` is a whole number of at least 1. */
export function checkPositiveInteger(what: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RangeError(`${what} must be a positive integer, got ${String(value)}.`);
  }
}
