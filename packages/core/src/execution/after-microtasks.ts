/** Something to look at again once the microtasks queued so far have run, unless withdrawn first. */
export interface Watched {
  /** Where it is enrolled; -1 when it is not. */
  watchSlot: number;
  watch(): void;
}

const enrolled: Watched[] = [];
let scheduled = false;

/**
 * Enrolls `item` for one `watch()` after the microtask queue drains, before the event loop moves
 * on to timers or I/O. One `process.nextTick` serves every item enrolled meanwhile: a tick per
 * item would pile up behind a long chain of promises (a loop of awaited calls never drains the
 * queue) and cost more than the calls themselves.
 */
export function enroll(item: Watched): void {
  item.watchSlot = enrolled.length;
  enrolled.push(item);
  if (scheduled) return;
  scheduled = true;
  process.nextTick(watchEnrolled);
}

/** Takes `item` out before its watch; constant time, so settled calls leave nothing behind. */
export function withdraw(item: Watched): void {
  const slot = item.watchSlot;
  if (slot < 0) return;
  item.watchSlot = -1;
  const last = enrolled.pop()!;
  if (last === item) return;
  enrolled[slot] = last;
  last.watchSlot = slot;
}

function watchEnrolled(): void {
  scheduled = false;
  const batch = enrolled.splice(0);
  // Every slot is cleared before any watch runs: a watch that settles another enrolled call must
  // find it already out of the list, not withdraw it from an array that no longer holds it.
  for (const item of batch) item.watchSlot = -1;
  for (const item of batch) item.watch();
}
