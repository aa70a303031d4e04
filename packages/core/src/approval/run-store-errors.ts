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
