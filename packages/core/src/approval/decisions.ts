import { DecisionError } from './decision-error';
import { textProblem } from './storable-key';
import type { ApprovalDecision, PendingCall, RunState } from './run-state';

export type { ApprovalDecision };

/** One decision per pending call, keyed by its `toolUseId`. */
export type ApprovalDecisions = Record<string, ApprovalDecision>;

/**
 * A decision a retried resume gave for a call answered under an earlier one: the earlier one
 * stands (the call ran, or its denial was journaled), and this attempt's is not applied.
 */
export interface SupersededDecision {
  toolUseId: string;
  /** What this attempt decided. */
  requested: ApprovalDecision;
  /** What the call was answered under, recorded with its journaled result. */
  recorded: ApprovalDecision;
}

/** A pending call and what was decided for it. */
export interface DecidedCall {
  call: PendingCall;
  decision: ApprovalDecision;
}

/**
 * The decisions for `runId`, one per pending call in the order the model asked for them, or a
 * `DecisionError`: the run is unknown (`state` undefined), has an owner other than `owner`, or is
 * finished, a decision is not of the form `{ approve: boolean, reason?: string }`, names an id
 * that is not pending, or is missing (a call whose decision an earlier resume recorded keeps it). The owner is checked right after the run is found, so
 * someone else learns nothing more about it (not whether it is finished, nor its pending ids).
 * A `'running'` run is accepted here: whether it may be resumed is the store's claim to decide.
 */
export function checkDecisions(runId: string, state: RunState | undefined, decisions: unknown, owner?: string): DecidedCall[] {
  if (!state) throw new DecisionError('unknown_run', runId, [], `Run ${JSON.stringify(runId)} is not in the store; it may have never existed or been removed.`);
  if (state.owner !== undefined && state.owner !== owner) {
    throw new DecisionError(
      'not_owner',
      runId,
      [],
      `Run ${JSON.stringify(runId)} was started by another owner; only the \`owner\` it was started with may resume it.`,
    );
  }
  if (state.status === 'finished') {
    throw new DecisionError('finished_run', runId, [], `Run ${JSON.stringify(runId)} is finished; there is nothing left to decide.`);
  }
  if (typeof decisions !== 'object' || decisions === null || Array.isArray(decisions)) {
    throw new DecisionError('malformed', runId, [], 'Decisions must be an object keyed by toolUseId: { "<toolUseId>": { "approve": true } }.');
  }
  const given = decisions as Record<string, unknown>;
  const malformed = Object.keys(given).filter((id) => !isDecision(given[id]));
  if (malformed.length > 0) {
    throw new DecisionError(
      'malformed',
      runId,
      malformed,
      `Decisions for ${list(malformed)} must be { "approve": boolean, "reason"?: string }.`,
    );
  }
  // A denial's reason is journaled as the call's answer, which stands on every later attempt: text
  // the API or a store cannot take (a lone surrogate, a text field cut inside an emoji) would fail
  // the run for good, so it is refused before anything is recorded.
  const unsendable = Object.keys(given).filter((id) => {
    const { reason } = given[id] as ApprovalDecision;
    return reason !== undefined && textProblem(reason) !== undefined;
  });
  if (unsendable.length > 0) {
    throw new DecisionError(
      'malformed',
      runId,
      unsendable,
      `The reasons of ${list(unsendable)} hold a NUL character or invalid UTF-16 (a lone surrogate, as a text cut inside an emoji leaves); send them as plain text.`,
    );
  }
  const pendingIds = new Set(state.pending.map((call) => call.toolUseId));
  const notPending = Object.keys(given).filter((id) => !pendingIds.has(id));
  if (notPending.length > 0) {
    throw new DecisionError(
      'not_pending',
      runId,
      notPending,
      `Run ${JSON.stringify(runId)} has no pending call ${list(notPending)}; pending: ${list([...pendingIds])}.`,
    );
  }
  // A call an earlier resume decided keeps that decision when a retry leaves it out: the retry after
  // a failure (`decisions: {}`, as the error advises) need not know what the person decided.
  const missing = state.pending.filter((call) => !Object.hasOwn(given, call.toolUseId) && call.decision === undefined).map((call) => call.toolUseId);
  if (missing.length > 0) {
    throw new DecisionError('missing', runId, missing, `Run ${JSON.stringify(runId)} needs a decision for ${list(missing)} too; decide every pending call at once.`);
  }
  return state.pending.map((call) => ({ call, decision: (Object.hasOwn(given, call.toolUseId) ? given[call.toolUseId] : call.decision) as ApprovalDecision }));
}

function isDecision(value: unknown): value is ApprovalDecision {
  if (typeof value !== 'object' || value === null) return false;
  const decision = value as Record<string, unknown>;
  return typeof decision.approve === 'boolean' && (decision.reason === undefined || typeof decision.reason === 'string');
}

function list(ids: readonly string[]): string {
  return ids.map((id) => JSON.stringify(id)).join(', ');
}
