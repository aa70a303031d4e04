import { DecisionError } from '../approval/decision-error';
import { RunStateError } from '../approval/run-state-error';
import { RunClaimError, RunConflictError, RunStoreError, type RunStoreOperation, type RunStoreProblem } from '../approval/run-store-errors';

/** What became of a held run after a failure: whether it was released, which results are still not journaled. */
export interface AfterFailure {
  released: boolean;
  unjournaled: readonly string[];
}

/**
 * `cause`, thrown by a store call, as the loop reports it: the store's own answers (a conflict, a
 * refused claim, a malformed state) stay what they are; anything else is a `RunStoreError`,
 * described for a run nobody holds until `after` says what became of a held one.
 */
export function storeFailure(runId: string, operation: RunStoreOperation, cause: unknown, problem: RunStoreProblem = 'store_failed', after?: AfterFailure): unknown {
  if (problem === 'store_failed' && isStoreAnswer(cause)) return cause;
  const what =
    problem === 'claim_lost'
      ? `Run ${JSON.stringify(runId)} stopped before its next call: this process no longer holds its claim (${operation}: ${describe(cause)}); another process may be running it.`
      : `Run ${JSON.stringify(runId)} stopped: its store failed on ${operation} (${describe(cause)}).`;
  return new RunStoreError(problem, runId, operation, after?.released ?? false, after?.unjournaled ?? [], `${what} ${whatToDo(runId, operation, problem, after)}`, { cause });
}

/** A `RunStoreError` of a held run again, now that the loop knows whether it released the run. */
export function afterFailure(error: RunStoreError, after: AfterFailure): RunStoreError {
  return storeFailure(error.runId, error.operation, error.cause, error.problem, after) as RunStoreError;
}

/** The sentence a `ToolLoopError` of a stored run ends with. */
export function resumeAdvice(runId: string, after: AfterFailure): string {
  return `${released(runId, after)}${unjournaledAdvice(after)}`;
}

function whatToDo(runId: string, operation: RunStoreOperation, problem: RunStoreProblem, after: AfterFailure | undefined): string {
  if (problem === 'claim_lost') {
    return `Do not resume it from here: a resume is refused while the other claim holds; once it lapses, resumeToolLoop({ runId: ${JSON.stringify(runId)}, decisions: {} }) carries the run on from the journal.${unjournaledAdvice(after)}`;
  }
  if (after) return resumeAdvice(runId, after);
  if (operation === 'create') return 'Nothing ran. Start the run again (if the store did save it, that copy stays claimed until its lease lapses).';
  if (operation === 'claim') return 'Nothing ran. Try the resume again; if the store took the claim before failing, the retry is refused as claimed until the lease lapses (claimLeaseMs).';
  return 'Nothing ran and nothing was claimed: try again.';
}

function released(runId: string, after: AfterFailure): string {
  const resume = `resumeToolLoop({ runId: ${JSON.stringify(runId)}, decisions: {} })`;
  return after.released
    ? `The run is saved and released: ${resume} carries it on now (or once the store answers again), and no call whose result is journaled runs again.`
    : `Its claim could not be released: a resume is refused as claimed until the lease lapses (claimLeaseMs after its last write); then ${resume} carries it on from the journal.`;
}

function unjournaledAdvice(after: AfterFailure | undefined): string {
  const ids = after?.unjournaled ?? [];
  if (ids.length === 0) return '';
  return ` The results of ${ids.map((id) => JSON.stringify(id)).join(', ')} could not be journaled, so a resume runs those calls again with the same ctx.toolUseId: pass it downstream as an idempotency key.`;
}

function isStoreAnswer(error: unknown): boolean {
  return error instanceof RunConflictError || error instanceof RunClaimError || error instanceof RunStateError || error instanceof DecisionError || error instanceof RunStoreError;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
