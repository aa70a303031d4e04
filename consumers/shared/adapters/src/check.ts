/**
 * What every adapter's smoke checks in the results the framework sent back to its model: the
 * invalid write refused with the container's message naming the field, the read after it not
 * run (the halt), then the corrected read answered.
 */
export function checkResults(first: readonly string[], second: readonly string[]): void {
  check(first.length === 2 && /^Invalid input for orders_cancel:\n.*numero/s.test(first[0]), `first step ${JSON.stringify(first)}`);
  check(first[1] === 'Not executed: an earlier call in this batch (orders_cancel, c1) failed.', `halt ${JSON.stringify(first[1])}`);
  check(second.length === 1 && second[0] === JSON.stringify({ status: 'shipped' }), `second step ${JSON.stringify(second)}`);
}

export function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`smoke: unexpected ${what}`);
}
