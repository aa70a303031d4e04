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
    return new Promise((resolve, reject) => {
      // A framework starts a step's calls within one tick; they are collected into one batch.
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ call, step: options.step, resolve, reject });
      this.signal ??= options.signal;
    });
  }

  private flush(): void {
    const batch = this.pending;
    const signal = this.signal;
    this.pending = [];
    this.signal = undefined;
    const hasWrite = batch.some((p) => this.container.effectOf(p.call.name) !== 'read');
    const after = hasWrite ? this.everything : this.writes;
    const done = after
      .then(() => this.execute(batch, signal))
      // `execute` does not reject; if it ever did, each caller turns the rejection into an error result.
      .then((results) => batch.forEach((p, i) => p.resolve(results[i])), (error: unknown) => batch.forEach((p) => p.reject(error)));
    this.everything = Promise.all([this.everything, done]);
    if (hasWrite) this.writes = this.everything;
  }

  private async execute(batch: readonly Pending[], signal: AbortSignal | undefined): Promise<ToolResultBlockParam[]> {
    const halts = (this.options.onWriteFailure ?? this.container.scheduling.onWriteFailure) === 'halt';
    const runs = batch.filter((p) => !(halts && p.step && this.halted.has(p.step)));
    const results = await this.container.execute(
      runs.map((p) => ({ type: 'tool_use' as const, id: p.call.id, name: p.call.name, input: p.call.input })),
      { ...this.options, signal },
    );
    const byCall = new Map(runs.map((p, i) => [p, results[i]]));
    return batch.map((p) => {
      const result = byCall.get(p);
      if (!result) {
        const cause = this.halted.get(p.step!)!;
        return { type: 'tool_result', tool_use_id: p.call.id, content: modelMessages.notExecuted(cause.name, cause.id), is_error: true };
      }
      if (halts && p.step && result.is_error && !this.halted.has(p.step) && this.container.effectOf(p.call.name) !== 'read') this.halted.set(p.step, p.call);
      return result;
    });
  }
}
