/** Why a run state was refused. */
export type RunStateProblem = 'malformed' | 'version' | 'signature';

/**
 * A run state that cannot be trusted: not the shape toolwright writes, written by another
 * version, or (for a state that travelled outside the server) a signature that does not verify.
 */
export class RunStateError extends Error {
  override readonly name = 'RunStateError';

  constructor(
    readonly problem: RunStateProblem,
    message: string,
  ) {
    super(message);
  }
}
