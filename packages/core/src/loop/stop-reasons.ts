import type { StopReason } from '@anthropic-ai/sdk/resources/messages';

/** A limit of the run, set by the application: the API has none for a model that keeps asking. */
export type ToolLoopLimit = 'max_turns' | 'output_tokens_budget' | 'time_budget' | 'aborted';

/** Why a run ended: the model's own stop reason, or the limit that ended it. */
export type ToolLoopStopReason = Exclude<StopReason, 'tool_use' | 'pause_turn'> | ToolLoopLimit;

export interface ToolLoopLimits {
  maxTurns: number;
  outputTokens?: number;
  ms?: number;
}

/** What the model reads for a call that did not run because of `limit`. */
export function notExecutedMessage(limit: ToolLoopLimit, limits: ToolLoopLimits): string {
  return limit === 'aborted' ? 'Not executed: the run was aborted.' : `Not executed: ${describeLimit(limit, limits)} reached.`;
}

/** What the model reads for a call in a response that was cut off: its input may be incomplete. */
export const CUT_OFF_MESSAGE = 'Not executed: the response was cut off at max_tokens, so this call may be incomplete.';

/** What the model reads for a call in a turn that ended without asking for tools (`refusal`, ...). */
export function endedTurnMessage(stopReason: string): string {
  return `Not executed: the turn ended with ${stopReason}.`;
}

/** The run's `text` when it ends before the model finished: what the user is told. */
export function incompleteNotice(reason: ToolLoopLimit | 'max_tokens', limits: ToolLoopLimits): string {
  switch (reason) {
    case 'aborted':
      return 'The operation did not complete: it was cancelled.';
    case 'max_tokens':
      return 'The operation did not complete: the response was cut off at the max_tokens limit.';
    default:
      return `The operation did not complete: ${describeLimit(reason, limits)} was reached.`;
  }
}

function describeLimit(limit: Exclude<ToolLoopLimit, 'aborted'>, limits: ToolLoopLimits): string {
  switch (limit) {
    case 'max_turns':
      return `the turn limit (${limits.maxTurns})`;
    case 'output_tokens_budget':
      return `the output token budget (${limits.outputTokens})`;
    case 'time_budget':
      return `the time budget (${limits.ms} ms)`;
  }
}

/** What the model reads for a call in a paused turn (`pause_turn`): only a turn that stopped for tools commits its calls. */
export const PAUSED_MESSAGE = 'Not executed: the turn was paused before this call was committed. Ask for it again if it is still needed.';

/** What the model reads for a call in a response that broke off (a stream error, a dropped connection). */
export const INTERRUPTED_MESSAGE = 'Not executed: the response was interrupted before this call was committed.';

/** What the model reads for a call in a response that ended without saying why. */
export const NO_STOP_REASON_MESSAGE = 'Not executed: the response ended without a stop reason.';
