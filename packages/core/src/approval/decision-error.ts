/** Why a set of decisions was refused. */
export type DecisionProblem = 'unknown_run' | 'not_owner' | 'finished_run' | 'malformed' | 'not_pending' | 'missing';

/** Decisions that cannot be applied to the run they name; `toolUseIds` lists the ids at fault. */
export class DecisionError extends Error {
  override readonly name = 'DecisionError';

  constructor(
    readonly problem: DecisionProblem,
    readonly runId: string,
    readonly toolUseIds: readonly string[],
    message: string,
  ) {
    super(message);
  }
}
