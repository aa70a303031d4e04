import type { BetaRunnableTool, BetaToolRunContext } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { ToolError as SdkToolError } from '@anthropic-ai/sdk/lib/tools/ToolError';
import type { BetaToolResultContentBlockParam } from '@anthropic-ai/sdk/resources/beta';
import type { ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { ExecuteOptions, ToolContainer } from '../container';

/** What every call of the runnable tools gets; the signal comes from the runner. */
export type RunnableToolsOptions<TAuth = unknown> = Omit<ExecuteOptions<TAuth>, 'signal'>;

/**
 * The container's tools as `BetaRunnableTool`s for `client.beta.messages.toolRunner`. Each call
 * goes through `container.execute`, so validation, guards, timeouts and error messages are the
 * same as in `runToolLoop`; an `is_error` result is thrown as the SDK's `ToolError` so the runner
 * sends it with `is_error: true` and its content unchanged. The read/write rule holds across the
 * calls the runner starts: see `RunnerSchedule`.
 */
export function runnableTools<TAuth>(container: ToolContainer<TAuth>, options: RunnableToolsOptions<TAuth> = {}): BetaRunnableTool<unknown>[] {
  const schedule = new RunnerSchedule(container, options);
  return container.definitions().map((definition) => ({
    ...definition,
    // Validation needs the container's async pipeline, so it happens in `run`; `parse` is sync.
    parse: (input: unknown) => input,
    run: async (input: unknown, context?: BetaToolRunContext) => {
      const call: ToolUseBlock = {
        type: 'tool_use',
        id: context?.toolUse.id ?? `toolwright_${definition.name}`,
        name: definition.name,
        input,
        caller: { type: 'direct' },
      };
      const result = await schedule.run(call, context?.signal ?? undefined);
      const content = (result.content ?? '') as string | BetaToolResultContentBlockParam[];
      if (result.is_error) throw new SdkToolError(content);
      return content;
    },
  }));
}

interface Pending {
  call: ToolUseBlock;
  resolve(result: ToolResultBlockParam): void;
  reject(error: unknown): void;
}

/**
 * Orders the calls the runner starts, in the order it starts them (the model's order). The calls
 * started in one go (the runner starts a turn's calls together, unless `runToolsEagerly`) are one
 * `execute` batch, so the container's schedule and halting rule apply to them as in the loop. A
 * batch with a write starts once every call started before it has finished; a batch of reads
 * once every write started before it has. With `runToolsEagerly` the runner starts each call on
 * its own, so each is a batch: a write still waits for every call before it, and a read after a
 * write waits for the write.
 */
class RunnerSchedule<TAuth> {
  private pending: Pending[] = [];
  private signal?: AbortSignal;
  /** Settles when every call started so far has finished. */
  private everything: Promise<unknown> = Promise.resolve();
  /** Settles when every write started so far (and so everything before it) has finished. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly container: ToolContainer<TAuth>,
    private readonly options: RunnableToolsOptions<TAuth>,
  ) {}

  run(call: ToolUseBlock, signal: AbortSignal | undefined): Promise<ToolResultBlockParam> {
    return new Promise((resolve, reject) => {
      // The runner starts a turn's calls within one tick; they are collected into one batch.
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ call, resolve, reject });
      this.signal ??= signal;
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
      .then(() => this.container.execute(batch.map((p) => p.call), { ...this.options, signal }))
      // `execute` does not reject; if it ever did, the runner turns the rejection into an error result.
      .then((results) => batch.forEach((p, i) => p.resolve(results[i])), (error: unknown) => batch.forEach((p) => p.reject(error)));
    this.everything = Promise.all([this.everything, done]);
    if (hasWrite) this.writes = this.everything;
  }
}
