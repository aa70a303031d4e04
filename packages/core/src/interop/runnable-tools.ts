import type { BetaRunnableTool, BetaToolRunContext } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { ToolError as SdkToolError } from '@anthropic-ai/sdk/lib/tools/ToolError';
import type { BetaToolResultContentBlockParam } from '@anthropic-ai/sdk/resources/beta';
import type { BatchExecutor } from '../execution/batch-executor';
import { ToolCallScheduler, type ToolCallSchedulerOptions } from './call-scheduler';

/** What every call of the runnable tools gets; the signal comes from the runner. */
export type RunnableToolsOptions<TAuth = unknown> = ToolCallSchedulerOptions<TAuth>;

/**
 * The container's tools as `BetaRunnableTool`s for `client.beta.messages.toolRunner`. Each call
 * goes through `container.execute`, so validation, guards, timeouts and error messages are the
 * same as in `runToolLoop`; an `is_error` result is thrown as the SDK's `ToolError` so the runner
 * sends it with `is_error: true` and its content unchanged. The read/write rule holds across the
 * calls the runner starts: see `ToolCallScheduler`.
 */
export function runnableTools<TAuth>(container: BatchExecutor<TAuth>, options: RunnableToolsOptions<TAuth> = {}): BetaRunnableTool<unknown>[] {
  const schedule = new ToolCallScheduler(container, options);
  return container.definitions().map((definition) => ({
    ...definition,
    // Validation needs the container's async pipeline, so it happens in `run`; `parse` is sync.
    parse: (input: unknown) => input,
    run: async (input: unknown, context?: BetaToolRunContext) => {
      const call = { id: context?.toolUse.id ?? `toolwright_${definition.name}`, name: definition.name, input };
      const result = await schedule.run(call, { signal: context?.signal ?? undefined });
      const content = (result.content ?? '') as string | BetaToolResultContentBlockParam[];
      if (result.is_error) throw new SdkToolError(content);
      return content;
    },
  }));
}
