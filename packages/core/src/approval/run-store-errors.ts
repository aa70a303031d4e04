/** Why a write to a store lost: the run already exists, does not exist, or changed since it was read. */
export type RunConflictProblem = 'exists' | 'unknown_run' | 'revision';

/**
 * A store write refused by optimistic concurrency: someone else wrote the run first. Reload it
 * and decide again; never retry the same write blindly.
 */
export class RunConflictError extends Error {
  override readonly name = 'RunConflictError';

  constructor(
    readonly problem: RunConflictProblem,
    readonly runId: string,
    /** The revision the run has now; undefined when it does not exist. */
    readonly actualRevision: number | undefined,
    message: string,
  ) {
    super(message);
  }

  /** The answers every `RunStore` gives, so that all stores say the same thing. */
  static exists(runId: string, actualRevision: number): RunConflictError {
    return new RunConflictError('exists', runId, actualRevision, `Run ${JSON.stringify(runId)} already exists; create a run once, then save it.`);
  }

  static unknownRun(runId: string): RunConflictError {
    return new RunConflictError('unknown_run', runId, undefined, `Run ${JSON.stringify(runId)} is not in the store; create it before saving it.`);
  }

  static revision(runId: string, expectedRevision: number, actualRevision: number): RunConflictError {
    return new RunConflictError(
      'revision',
      runId,
      actualRevision,
      `Run ${JSON.stringify(runId)} is at revision ${actualRevision}, not ${expectedRevision}: another process wrote it since it was read. Load it again.`,
    );
  }
}

/** Why a claim was refused. */
export type RunClaimProblem = 'unknown_run' | 'finished' | 'claimed';

/** A resume that must not proceed: the run is unknown, finished, or another process is running it. */
export class RunClaimError extends Error {
  override readonly name = 'RunClaimError';

  constructor(
    readonly problem: RunClaimProblem,
    readonly runId: string,
    message: string,
  ) {
    super(message);
  }

  static unknownRun(runId: string): RunClaimError {
    return new RunClaimError('unknown_run', runId, `Run ${JSON.stringify(runId)} is not in the store; nothing to resume.`);
  }

  static finished(runId: string): RunClaimError {
    return new RunClaimError('finished', runId, `Run ${JSON.stringify(runId)} is finished; nothing to resume.`);
  }

  static claimed(runId: string, leaseExpiresAt: number): RunClaimError {
    return new RunClaimError(
      'claimed',
      runId,
      `Run ${JSON.stringify(runId)} is being resumed by another request; its claim lasts until ${new Date(leaseExpiresAt).toISOString()} unless that process writes again. Do not resume it twice.`,
    );
  }
}

/** The store call that failed. */
export type RunStoreOperation = 'create' | 'load' | 'claim' | 'save' | 'release' | 'recordResult' | 'journaledResults' | 'renew';

/**
 * Why a run stopped on its store: a store call failed (`store_failed`), or this process no longer
 * holds the run's claim (`claim_lost`: a renewal or a save was refused or failed, so another
 * process may have taken the run over).
 */
export type RunStoreProblem = 'store_failed' | 'claim_lost';

/**
 * The loop stopped because of its store. Nothing is left running and nothing more starts. The
 * message says what is safe to do; `released` and `unjournaled` say it as data:
 * - `released`: the run is saved and unclaimed, so `resumeToolLoop({ runId, decisions: {} })`
 *   may run it at once (again once the store answers). Otherwise a resume is refused as claimed
 *   until the lease lapses (`claimLeaseMs` after the last write).
 * - `unjournaled`: calls that completed but whose results could not be journaled; a resume runs
 *   them again, with the same `ctx.toolUseId`. Empty when the results were journaled on a retry.
 */
export class RunStoreError extends Error {
  override readonly name = 'RunStoreError';

  constructor(
    readonly problem: RunStoreProblem,
    readonly runId: string,
    readonly operation: RunStoreOperation,
    readonly released: boolean,
    readonly unjournaled: readonly string[],
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}
