import type { ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { ApprovalCheck } from '../approval/approval-check';
import type { ToolContainer } from '../container';
import type { ExecuteOptions } from '../execution/batch-executor';
import type { CallOutcome, ToolEvent } from '../execution/call.types';
import { modelMessages } from '../execution/messages';
import type { StreamedEffect, ToolStreamEvent } from './stream-events';
import type { ToolLoopLimit } from './stop-reasons';

export interface TurnCallsEnv {
  container: ToolContainer<unknown>;
  context: Omit<ExecuteOptions<unknown>, 'signal' | 'onEvent'>;
  turn: number;
  /** The run's signal: aborting it cancels the calls running. */
  signal: AbortSignal;
  /** The limit reached now, if any: checked before each call starts. */
  limit(): ToolLoopLimit | undefined;
  /** What the model reads for a call a limit kept from running. */
  limitMessage(limit: ToolLoopLimit): string;
  emit(event: ToolStreamEvent): void;
  /** The container's own events, for `onEvent`. */
  onToolEvent(event: ToolEvent): void;
  /**
   * Whether a call must wait for a person, asked as soon as its block is complete (a batch taken
   * back by a resume has its decisions already, and passes none). Until a call's answer is known
   * no call from it on starts early; a call that needs approval keeps them from starting at all.
   */
  approval?(block: ToolUseBlock): Promise<ApprovalCheck>;
  /** Keeps each result as the call completes; the result it returns (the first journaled) is the answer. */
  journal?(result: ToolResultBlockParam): Promise<ToolResultBlockParam>;
  /** Why no call may start any more (the run lost its claim), if so. */
  stopped?(): unknown;
}

interface Call {
  block: ToolUseBlock;
  effect: StreamedEffect;
  mayWrite: boolean;
  /** A read with no write (nor unknown tool) before it in the message: it may start before the message ends. */
  eager: boolean;
  /** Its approval: being decided, none needed, needed (it waits for a person), or answered by the check (a predicate threw). */
  approval: 'deciding' | 'clear' | 'needed' | 'answered';
  decided?: Promise<ApprovalCheck>;
  released: boolean;
  state: 'waiting' | 'queued' | 'running' | 'answered';
  result?: ToolResultBlockParam;
  /** Resolves once the call is answered, or left waiting because a limit was reached. */
  settled?: Promise<void>;
  settle?: () => void;
}

/** How the calls of a committed turn ended. */
export interface CommitOutcome {
  results: ToolResultBlockParam[];
  /** The limit that stopped calls from starting, and the ids it left unrun. */
  limit?: { limit: ToolLoopLimit; notExecuted: string[] };
}

/**
 * The tool calls of one assistant message, scheduled as DESIGN.md's "eager reads, committed
 * writes": a read may start once the model has moved past its block, provided no write (nor
 * unknown tool) comes before it; everything from the first write on waits until the message has
 * arrived whole with `stop_reason: tool_use`, and then runs through `ToolContainer.execute` one
 * segment at a time (a run of reads, or a single write), so validation, guards, timeouts and
 * every message are the container's; a failed write halts the segments after it as `execute`
 * halts the rest of a batch. The limits are checked before each call or segment starts.
 */
export class TurnCalls {
  private readonly calls: Call[] = [];
  private readonly controller = new AbortController();
  private readonly unfollow: () => void;
  private readonly maxConcurrency: number;
  private readonly halts: boolean;
  private readonly queue: Call[] = [];
  private prefixOpen = true;
  /** A journal write that failed: no call starts after it, and the turn ends with it once the running ones are done. */
  private failure: unknown;
  private messageOpen = true;
  /** How many calls the model has moved past: only those may start early. */
  private passed = 0;
  private running = 0;

  constructor(private readonly env: TurnCallsEnv) {
    const scheduling = env.container.scheduling;
    this.maxConcurrency = env.context.maxConcurrency ?? scheduling.maxConcurrency;
    this.halts = (env.context.onWriteFailure ?? scheduling.onWriteFailure) !== 'continue';
    // A signal aborted already is the limit 'aborted', which every call is checked against before it starts.
    const onAbort = () => this.controller.abort(env.signal.reason);
    env.signal.addEventListener('abort', onAbort, { once: true });
    this.unfollow = () => env.signal.removeEventListener('abort', onAbort);
  }

  get size(): number {
    return this.calls.length;
  }

  /**
   * A complete `tool_use` block, in message order. `refusal` answers it without running (its
   * input cannot be kept in the conversation); a refused write halts the calls after it.
   */
  add(block: ToolUseBlock, index: number, refusal?: string, outcome: CallOutcome = 'invalid_input'): void {
    const effect: StreamedEffect = this.env.container.effectOf(block.name) ?? 'unknown';
    const mayWrite = effect !== 'read';
    const asking = refusal === undefined && this.env.approval !== undefined;
    const call: Call = { block, effect, mayWrite, eager: this.prefixOpen && !mayWrite, approval: asking ? 'deciding' : 'clear', released: false, state: 'waiting' };
    if (mayWrite) this.prefixOpen = false;
    this.calls.push(call);
    this.env.emit({ type: 'tool_call', turn: this.env.turn, index, call: block, effect, at: Date.now() });
    if (refusal !== undefined) this.answer(call, refusal, outcome);
    if (asking) {
      call.decided = this.env.approval!(block);
      void call.decided.then(
        (check) => {
          call.approval = check.pending.length > 0 ? 'needed' : check.answered.length > 0 ? 'answered' : 'clear';
          if (this.messageOpen) this.startEager();
        },
        // The rejection reaches the loop through `approvals()`; until then the call stays 'deciding', which holds the calls after it.
        () => undefined,
      );
    }
  }

  /**
   * The approval check of the batch, call by call in message order, once every call's is known:
   * what `ToolContainer.checkApprovals` says of the whole message. Empty without `approval`.
   */
  async approvals(): Promise<ApprovalCheck> {
    const checks = await Promise.all(this.calls.map((c) => c.decided));
    return { pending: checks.flatMap((c) => c?.pending ?? []), answered: checks.flatMap((c) => c?.answered ?? []) };
  }

  /**
   * The batch waits for a person: nothing more starts; the reads that started early (or were
   * queued to) finish, so each result is journaled before the run is saved as pending and
   * another process may take it.
   */
  async pause(): Promise<void> {
    this.messageOpen = false;
    await Promise.all(this.calls.map((c) => c.settled));
    this.unfollow();
    const halted = this.halted();
    if (halted) throw halted;
  }

  /**
   * Answers the call `result.tool_use_id` without running it: a result journaled by an earlier
   * attempt, or a person's denial. `failed` makes it count as a failed write (the calls after it
   * halt); a journaled result counts as what it is.
   */
  preset(result: ToolResultBlockParam, failed: boolean): void {
    const call = this.calls.find((c) => c.block.id === result.tool_use_id);
    if (!call || call.state !== 'waiting') return;
    if (failed) {
      // A failed write closes the prefix: it and what follows run in order, so the halt reaches them
      // (presets come before `commit`, so none of them has been released yet).
      call.mayWrite = true;
      for (const later of this.calls.slice(this.calls.indexOf(call))) later.eager = false;
    }
    this.record(call, result, failed ? 'refused' : result.is_error ? 'tool_error' : 'ok', 0);
  }

  /** The model has moved past every block added so far: their reads may start. */
  release(): void {
    this.passed = this.calls.length;
    this.startEager();
  }

  /** Starts the reads the model has moved past, up to the first call whose approval is needed or not yet known. */
  private startEager(): void {
    for (const call of this.calls.slice(0, this.passed)) {
      if (call.approval === 'deciding' || call.approval === 'needed') break;
      if (!call.eager || call.released || call.approval === 'answered') continue;
      call.released = true;
      if (call.state !== 'waiting') continue;
      call.settled = new Promise((resolve) => (call.settle = resolve));
      call.state = 'queued';
      this.queue.push(call);
    }
    this.pump();
  }

  /** The message arrived whole with `stop_reason: tool_use`: the rest may run, in order. */
  async commit(): Promise<CommitOutcome> {
    this.messageOpen = false;
    const before = this.env.limit();
    if (before) return this.stopAt(before);
    await Promise.all(this.calls.map((c) => c.decided));
    this.release();
    await Promise.all(this.calls.map((c) => c.settled));
    // What did not start early runs now, in order (a read kept back by an approval included).
    const rest = this.calls.filter((c) => !c.released);
    // In message order: a failed write halts the calls after it, not those before it.
    let failedWrite: Call | undefined;
    for (let start = 0; start < rest.length; ) {
      const end = segmentEnd(rest, start);
      const whole = rest.slice(start, end);
      const segment = whole.filter((c) => c.state === 'waiting');
      start = end;
      if (segment.length === 0) {
        failedWrite ??= whole.find((c) => c.mayWrite && c.result?.is_error);
        continue;
      }
      if (failedWrite && this.halts) {
        const cause = failedWrite.block;
        for (const call of rest) {
          if (call.state !== 'waiting') continue;
          this.env.onToolEvent({ type: 'call_skipped', tool: call.block.name, toolUseId: call.block.id, effect: call.effect, at: Date.now(), reason: 'halted' });
          this.answer(call, modelMessages.notExecuted(cause.name, cause.id), 'not_executed');
        }
        break;
      }
      const limit = this.env.limit();
      if (limit) return this.stopAt(limit);
      if (this.halted()) break;
      await this.execute(segment);
      failedWrite ??= whole.find((c) => c.mayWrite && c.result?.is_error);
    }
    // A read the model moved past may have been kept from starting by a limit.
    const limit = this.calls.some((c) => c.state === 'waiting') ? this.env.limit() : undefined;
    if (limit) return this.stopAt(limit);
    return this.finish();
  }

  /** Every call still unanswered after a limit: it does not run. Calls already running finish. */
  private async stopAt(limit: ToolLoopLimit): Promise<CommitOutcome> {
    const notExecuted = this.answerWaiting(this.env.limitMessage(limit));
    await Promise.all(this.calls.map((c) => c.settled));
    return { ...this.finish(), limit: { limit, notExecuted } };
  }

  /**
   * The message ended any other way (cut off, refused, paused, interrupted, aborted): no call
   * starts, running reads are aborted, and every call is answered, `reason` for those that did
   * not run. Returns the ids answered with `reason`.
   */
  async abandon(reason: string): Promise<{ results: ToolResultBlockParam[]; notExecuted: string[] }> {
    this.messageOpen = false;
    const notExecuted = this.answerWaiting(reason);
    if (this.calls.some((c) => c.state === 'running')) this.controller.abort(new Error(reason));
    await Promise.all(this.calls.map((c) => c.settled));
    return { results: this.finish().results, notExecuted };
  }

  private answerWaiting(reason: string): string[] {
    this.queue.length = 0;
    const ids: string[] = [];
    for (const call of this.calls) {
      if (call.state !== 'waiting' && call.state !== 'queued') continue;
      this.answer(call, reason, 'not_executed');
      ids.push(call.block.id);
    }
    return ids;
  }

  /**
   * Stops every call from starting and waits for those running, without answering anything: what
   * the loop does before it hands a failure on, so that nothing of the turn outlives it.
   */
  async stop(): Promise<void> {
    this.messageOpen = false;
    this.queue.length = 0;
    await Promise.all(this.calls.filter((c) => c.state === 'running').map((c) => c.settled));
    this.unfollow();
  }

  /** The failure no call may start after: a journal write of this turn, or the run's own. */
  private halted(): unknown {
    return this.failure ?? this.env.stopped?.();
  }

  private finish(): CommitOutcome {
    this.unfollow();
    const halted = this.halted();
    if (halted) throw halted;
    return { results: this.calls.map((c) => c.result!) };
  }

  private pump(): void {
    while (this.running < this.maxConcurrency && this.queue.length > 0) {
      const call = this.queue.shift()!;
      if (this.env.limit() || this.halted()) {
        // Left for `commit` or `abandon` to answer with the reason (or to end with the failure).
        call.state = 'waiting';
        call.settle!();
        continue;
      }
      this.running += 1;
      void this.execute([call])
        .catch((error: unknown) => {
          this.failure ??= error;
          call.settle!();
        })
        .finally(() => {
          this.running -= 1;
          this.pump();
        });
    }
  }

  private async execute(calls: Call[]): Promise<void> {
    if (this.env.journal && calls.length > 1) {
      // One `execute` per read, so each result is journaled as it completes, not when the slowest ends.
      let next = 0;
      const worker = async () => {
        while (next < calls.length && !this.halted()) await this.execute([calls[next++]]);
      };
      await Promise.all(Array.from({ length: Math.min(this.maxConcurrency, calls.length) }, worker));
      return;
    }
    for (const call of calls) call.state = 'running';
    const byId = new Map(calls.map((c) => [c.block.id, c]));
    const started = new Map<string, number>();
    const outcomes = new Map<string, CallOutcome>();
    const results = await this.env.container.execute(
      calls.map((c) => c.block),
      {
        ...this.env.context,
        signal: this.controller.signal,
        onEvent: (event) => {
          this.env.onToolEvent(event);
          const call = byId.get(event.toolUseId);
          if (!call) return;
          if (event.type === 'call_start') {
            started.set(call.block.id, event.at);
            this.env.emit({ ...this.identify(call), type: 'tool_start', eager: this.messageOpen, at: event.at });
          } else if (event.type === 'call_end') {
            outcomes.set(call.block.id, event.outcome);
          } else {
            outcomes.set(call.block.id, event.reason === 'cancelled' ? 'cancelled' : 'not_executed');
          }
        },
      },
    );
    if (this.env.journal) {
      for (let i = 0; i < results.length; i++) {
        try {
          results[i] = await this.env.journal(results[i]);
        } catch (error) {
          // The call ran: its result is still its answer; the turn ends with the failure.
          this.failure ??= error;
        }
      }
    }
    calls.forEach((call, i) => {
      const start = started.get(call.block.id);
      const outcome = outcomes.get(call.block.id) ?? (results[i].is_error ? 'tool_error' : 'ok');
      this.record(call, results[i], outcome, start === undefined ? 0 : Date.now() - start);
    });
  }

  private answer(call: Call, content: string, outcome: CallOutcome): void {
    this.record(call, { type: 'tool_result', tool_use_id: call.block.id, content, is_error: true }, outcome, 0);
  }

  private record(call: Call, result: ToolResultBlockParam, outcome: CallOutcome, durationMs: number): void {
    call.result = result;
    call.state = 'answered';
    this.env.emit({ ...this.identify(call), type: 'tool_end', outcome, isError: result.is_error === true, durationMs, at: Date.now() });
    call.settle?.();
  }

  private identify(call: Call) {
    return { turn: this.env.turn, toolUseId: call.block.id, toolName: call.block.name, effect: call.effect };
  }
}

/** The end of the segment starting at `start`: a write alone, or consecutive reads. */
function segmentEnd(calls: readonly Call[], start: number): number {
  if (calls[start].mayWrite) return start + 1;
  let end = start + 1;
  while (end < calls.length && !calls[end].mayWrite) end++;
  return end;
}
