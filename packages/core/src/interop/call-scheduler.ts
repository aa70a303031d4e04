import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { BatchExecutor, ExecuteOptions } from '../execution/batch-executor';
import type { ToolCall } from '../execution/call.types';
import { modelMessages } from '../execution/messages';

/** What every call of a scheduler gets; the signal comes with each call. */
export type ToolCallSchedulerOptions<TAuth = unknown> = Omit<ExecuteOptions<TAuth>, 'signal'>;

/** Where a call comes from, as the framework that starts it knows. */
export interface ScheduledCallOptions {
  signal?: AbortSignal;
  /**
   * Any object that is the same for every call of one model step (and only them), when the
   * framework can name the step: a failed write then halts the calls of that step that start
   * after its batch, not only those started with it (frameworks that start a step's calls a few
   * at a time, such as the AI SDK with `toolCallConcurrency`).
   */
  step?: object;
}

interface Pending {
  call: ToolCall;
  step?: object;
  /** A person's denial: the call's answer, given in its place without running it. */
  denial?: ToolResultBlockParam;
  resolve(result: ToolResultBlockParam): void;
  reject(error: unknown): void;
}

/**
 * Orders the calls an outside agent loop starts, in the order it starts them (the model's
 * order), for surfaces that hand the container one call at a time (the SDK's tool runner, other
 * agent frameworks). The calls started in one go (within one turn of the event loop) are one
 * `execute` batch, so the container's schedule and halting rule apply to them as in the loop. A
 * batch with a write starts once every call started before it has finished; a batch of reads
 * once every write started before it has. A call started on its own is a batch of one: a write
 * still waits for every call before it, and a read after a write waits for the write.
 */
export class ToolCallScheduler<TAuth = unknown> {
  private pending: Pending[] = [];
  private signal?: AbortSignal;
  /** Settles when every call started so far has finished. */
  private everything: Promise<unknown> = Promise.resolve();
  /** Settles when every write started so far (and so everything before it) has finished. */
  private writes: Promise<unknown> = Promise.resolve();
  /** Per step, the write that failed in it: what halts the step's later batches. */
  private readonly halted = new WeakMap<object, ToolCall>();

  constructor(
    private readonly container: BatchExecutor<TAuth>,
    private readonly options: ToolCallSchedulerOptions<TAuth> = {},
  ) {}

  /** The call's `tool_result`, once it has run in its turn. Never rejects for anything a model or a tool does. */
  run(call: ToolCall, options: ScheduledCallOptions = {}): Promise<ToolResultBlockParam> {
    return this.enqueue(call, options);
  }

  /**
   * Answers a call a person denied, in its place in the order, without running it: the model
   * reads "Denied by the user" (with the reason), and the denial counts as a failed write, so
   * the calls after it in its batch and its step halt, as in `resumeToolLoop`.
   */
  deny(call: ToolCall, reason?: string, options: ScheduledCallOptions = {}): Promise<ToolResultBlockParam> {
    return this.enqueue(call, options, { type: 'tool_result', tool_use_id: call.id, content: modelMessages.denied(reason), is_error: true });
  }

  /**
   * Records a write of `step` that already failed where this scheduler did not run it (in an
   * earlier request of a step resumed after approval): the step's calls halt from now on, as
   * after a failed write it ran. Nothing with `onWriteFailure: 'continue'`.
   */
  failedEarlier(call: ToolCall, step: object): void {
    if (this.halts() && !this.halted.has(step)) this.halted.set(step, call);
  }

  private halts(): boolean {
    return (this.options.onWriteFailure ?? this.container.scheduling.onWriteFailure) === 'halt';
  }

  private enqueue(call: ToolCall, options: ScheduledCallOptions, denial?: ToolResultBlockParam): Promise<ToolResultBlockParam> {
    return new Promise((resolve, reject) => {
      // A framework starts a step's calls within one tick; they are collected into one batch. A
      // call of another run (another signal) or another step starts a batch of its own: a batch
      // has one signal, so one run's abort never cancels another's call, nor its failure halts them.
      if (this.pending.length > 0 && (options.signal !== this.signal || options.step !== this.pending[0].step)) this.flush();
      if (this.pending.length === 0) {
        setImmediate(() => this.flush());
        this.signal = options.signal;
      }
      this.pending.push({ call, step: options.step, denial, resolve, reject });
    });
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    const signal = this.signal;
    this.pending = [];
    this.signal = undefined;
    const hasWrite = batch.some((p) => p.denial || this.container.effectOf(p.call.name) !== 'read');
    const after = hasWrite ? this.everything : this.writes;
    const done = after
      .then(() => this.execute(batch, signal))
      // `execute` does not reject; if it ever did, each caller turns the rejection into an error result.
      .then((results) => batch.forEach((p, i) => p.resolve(results[i])), (error: unknown) => batch.forEach((p) => p.reject(error)));
    this.everything = Promise.all([this.everything, done]);
    if (hasWrite) this.writes = this.everything;
  }

  /** The batch in order, cut at each denial: the calls before a denial run, those after it halt. */
  private async execute(batch: readonly Pending[], signal: AbortSignal | undefined): Promise<ToolResultBlockParam[]> {
    const halts = this.halts();
    const results: ToolResultBlockParam[] = [];
    /** The first write of this batch that failed or was denied: what halts the calls after it. */
    let failed: ToolCall | undefined;
    for (let start = 0; start < batch.length; ) {
      let end = start + 1;
      if (!batch[start].denial) while (end < batch.length && !batch[end].denial) end++;
      const segment = batch.slice(start, end);
      start = end;
      const answers = segment[0].denial ? [{ result: segment[0].denial, halted: false }] : await this.executeSegment(segment, halts ? failed : undefined, halts, signal);
      segment.forEach((p, i) => {
        const { result, halted } = answers[i];
        results.push(result);
        if (!halts || halted || !result.is_error || (!p.denial && this.container.effectOf(p.call.name) === 'read')) return;
        failed ??= p.call;
        if (p.step && !this.halted.has(p.step)) this.halted.set(p.step, p.call);
      });
    }
    return results;
  }

  /** Calls with no denial among them, as one `execute`; those an earlier failure of their batch or step halts do not run. */
  private async executeSegment(
    segment: readonly Pending[],
    failed: ToolCall | undefined,
    halts: boolean,
    signal: AbortSignal | undefined,
  ): Promise<Array<{ result: ToolResultBlockParam; halted: boolean }>> {
    const causes = segment.map((p) => failed ?? (halts && p.step ? this.halted.get(p.step) : undefined));
    const runs = segment.filter((_, i) => !causes[i]);
    const results =
      runs.length === 0
        ? []
        : await this.container.execute(
            runs.map((p) => ({ type: 'tool_use' as const, id: p.call.id, name: p.call.name, input: p.call.input })),
            { ...this.options, signal },
          );
    const byCall = new Map(runs.map((p, i) => [p, results[i]]));
    return segment.map((p, i) => {
      const cause = causes[i];
      if (!cause) return { result: byCall.get(p)!, halted: false };
      return { result: { type: 'tool_result', tool_use_id: p.call.id, content: modelMessages.notExecuted(cause.name, cause.id), is_error: true }, halted: true };
    });
  }
}
