import type { RunStoreOperation } from '../approval/run-store-errors';

/** The longest delay a timer keeps; a longer one fires after 1 ms. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * How long a store call in flight when the run is aborted is still waited for. A store that
 * answers (almost all of them, almost always) lets the aborted run be saved and released as
 * usual, free to resume at once; one that does not is given up after this, leaving the claim to lapse.
 */
const ABORT_GRACE_MS = 1_000;

/**
 * A store call the run stopped waiting for: the run was aborted and the store had not answered
 * it within the grace (a pool with no free connection, a lock wait, a half-open connection). Whether it took effect
 * is unknown, so no further call is made to that store by this run.
 */
export class StoreSilence extends Error {
  constructor(readonly operation: RunStoreOperation) {
    super(`the store did not answer ${operation} in time once the run was aborted, so whether it took effect is unknown`);
  }
}

/**
 * `op()`, or a `StoreSilence` if it has not settled `ABORT_GRACE_MS` after `signal` aborts; made
 * after the abort, it is given `leaseMs` to settle instead. The store call itself cannot be
 * cancelled: its late answer is dropped (revisions fence a late save; a late journal entry is
 * found by the next resume).
 */
export function untilAbort<T>(operation: RunStoreOperation, op: () => Promise<T>, signal: AbortSignal | undefined, leaseMs: number, onSilence?: (silence: StoreSilence) => void): Promise<T> {
  if (!signal) return op();
  const pending = op();
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waitAtMost = (ms: number) => {
      timer = setTimeout(giveUp, timerDelay(ms));
    };
    const onAbort = () => waitAtMost(Math.min(ABORT_GRACE_MS, leaseMs));
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    };
    // Called by the timer alone, once the abort's listener has fired (or was never added).
    function giveUp() {
      const silence = new StoreSilence(operation);
      onSilence?.(silence);
      reject(silence);
    }
    if (signal.aborted) waitAtMost(leaseMs);
    else signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/** `ms` as a timer keeps it: at least 1, at most 2^31-1 (a longer delay would fire after 1 ms). */
export function timerDelay(ms: number): number {
  return Math.min(MAX_TIMER_DELAY_MS, Math.max(1, ms));
}
