import { DEFAULT_CLAIM_LEASE_MS, type RunStore } from '../approval/run-store';
import type { RunStoreOperation } from '../approval/run-store-errors';

/** The longest delay a timer keeps; a longer one fires after 1 ms. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * How long a store call in flight when the run is aborted is still waited for. A store that
 * answers (almost all of them, almost always) lets the aborted run be saved and released as
 * usual, free to resume at once; one that does not is given up after this, leaving the claim to lapse.
 */
const ABORT_GRACE_MS = 1_000;

/** Why a store call was given up: the run was aborted, or the call outlasted a claim lease. */
export type SilenceCause = 'abort' | 'lease';

/**
 * A store call the run stopped waiting for: the run was aborted and the store had not answered
 * it within the grace, or it had not answered within a whole claim lease (a pool with no free
 * connection, a lock wait, a half-open connection). Whether it took effect is unknown, so no
 * further call is made to that store by this run.
 */
export class StoreSilence extends Error {
  constructor(
    readonly operation: RunStoreOperation,
    readonly reason: SilenceCause,
    leaseMs: number,
  ) {
    super(
      reason === 'abort'
        ? `the store did not answer ${operation} in time once the run was aborted, so whether it took effect is unknown`
        : `the store did not answer ${operation} within the claim lease (${leaseMs} ms), so whether it took effect is unknown`,
    );
  }
}

/**
 * `op()`, or a `StoreSilence` if it has not settled within `leaseMs`, or `ABORT_GRACE_MS` after
 * `signal` aborts while it waits (made after the abort, it has the lease). A call that outlasts a lease is given
 * up whether or not anything aborts: the run's promise must settle while its store hangs, and a
 * heartbeat answered on another connection would otherwise keep the claim of a run that can never
 * go on, so no other process could recover it. The store call itself cannot be cancelled: its late
 * answer is dropped (revisions fence a late save; a late journal entry is found by the next resume).
 */
export function untilAnswered<T>(operation: RunStoreOperation, op: () => Promise<T>, signal: AbortSignal | undefined, leaseMs: number, onSilence?: (silence: StoreSilence) => void): Promise<T> {
  const pending = op();
  return new Promise<T>((resolve, reject) => {
    // The lease's timer alone never keeps a process alive; the grace's, once aborted, does.
    let timer = setTimeout(() => giveUp('lease'), timerDelay(leaseMs)).unref();
    // The grace counts from the abort, in place of what is left of the lease.
    const onAbort = () => {
      clearTimeout(timer);
      timer = setTimeout(() => giveUp('abort'), timerDelay(Math.min(ABORT_GRACE_MS, leaseMs)));
    };
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    };
    function giveUp(reason: SilenceCause) {
      done();
      const silence = new StoreSilence(operation, reason, leaseMs);
      onSilence?.(silence);
      reject(silence);
    }
    if (signal && !signal.aborted) signal.addEventListener('abort', onAbort);
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

/** The store's lease, or the default for a store (plain JavaScript) that states none usable. */
export function leaseOf(store: RunStore): number {
  return Number.isFinite(store.claimLeaseMs) && store.claimLeaseMs > 0 ? store.claimLeaseMs : DEFAULT_CLAIM_LEASE_MS;
}

/** `ms` as a timer keeps it: at least 1, at most 2^31-1 (a longer delay would fire after 1 ms). */
export function timerDelay(ms: number): number {
  return Math.min(MAX_TIMER_DELAY_MS, Math.max(1, ms));
}
