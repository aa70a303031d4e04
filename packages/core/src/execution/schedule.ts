import type { CallResult, SkipReason, ToolCall, TraceCarrier } from './call.types';
import type { ToolClient } from '../context';

/** What to do with the rest of a batch after a call that is or may be a write fails. */
export type WriteFailurePolicy = 'halt' | 'continue';

export interface ScheduledCall extends ToolCall {
  /** Writes and calls of unknown effect (an unknown tool) run alone and can halt the batch. */
  mayWrite: boolean;
  /** The caller's client, for a call made on its own (`executeCall`). */
  client?: ToolClient;
  /** The caller's trace context, for a call made on its own (`executeCall`). */
  traceContext?: TraceCarrier;
}

export interface ScheduleOptions {
  maxConcurrency: number;
  onWriteFailure: WriteFailurePolicy;
  /** Once aborted, no call starts: the rest are skipped as cancelled. */
  signal: { readonly aborted: boolean };
  run(call: ScheduledCall): CallResult | Promise<CallResult>;
  skip(call: ScheduledCall, reason: Exclude<SkipReason, 'duplicate_id'>, cause?: ScheduledCall): CallResult;
}

/**
 * Cuts the batch into consecutive segments (a maximal run of reads, or a single write) and runs
 * them in order: the reads of a segment concurrently, at most `maxConcurrency` at a time, each
 * write alone. Results come back in the order of the calls, whatever order they finish in. Each
 * lands in `results` as soon as it is known, so a caller that stops waiting still has them.
 */
export async function runSchedule(
  calls: readonly ScheduledCall[],
  options: ScheduleOptions,
  results: CallResult[],
): Promise<CallResult[]> {
  let failedWrite: ScheduledCall | undefined;

  const skipReason = (): 'halted' | 'cancelled' | undefined =>
    options.signal.aborted ? 'cancelled' : failedWrite ? 'halted' : undefined;

  const runOne = async (index: number) => {
    const call = calls[index];
    const reason = skipReason();
    if (reason) {
      results[index] = options.skip(call, reason, failedWrite);
      return;
    }
    results[index] = await options.run(call);
    // Only an explicit 'continue' goes on: an unexpected value errs on the side of not writing.
    if (call.mayWrite && results[index].outcome !== 'ok' && options.onWriteFailure !== 'continue') failedWrite ??= call;
  };

  // At least one worker per segment, whatever the option says (NaN, 0, a fraction): zero workers
  // would leave calls without a result.
  const limit = Math.max(1, Math.floor(options.maxConcurrency) || 1);
  for (const [start, end] of segments(calls)) {
    // A segment of one call (each write) gets one worker, which runs it alone.
    const width = Math.min(limit, end - start);
    let next = start;
    const worker = async () => {
      while (next < end) await runOne(next++);
    };
    await Promise.all(Array.from({ length: width }, worker));
  }
  return results;
}

/** `[start, end)` ranges: each write alone, consecutive reads together. */
export function segments(calls: readonly { mayWrite: boolean }[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let i = 0;
  while (i < calls.length) {
    let end = i + 1;
    if (!calls[i].mayWrite) while (end < calls.length && !calls[end].mayWrite) end++;
    ranges.push([i, end]);
    i = end;
  }
  return ranges;
}
