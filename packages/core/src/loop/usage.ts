import type { Usage } from '@anthropic-ai/sdk/resources/messages';

/** Tokens summed over every response of a run. */
export interface ToolLoopUsage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

export function emptyUsage(): ToolLoopUsage {
  return { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
}

export function addUsage(total: ToolLoopUsage, usage: Usage): void {
  total.inputTokens += usage.input_tokens;
  total.outputTokens += usage.output_tokens;
  total.cacheCreationInputTokens += usage.cache_creation_input_tokens ?? 0;
  total.cacheReadInputTokens += usage.cache_read_input_tokens ?? 0;
}

/** One response's usage in the run's shape; zeros when it is not known. */
export function toLoopUsage(usage: Usage | undefined): ToolLoopUsage {
  const total = emptyUsage();
  if (usage) addUsage(total, usage);
  return total;
}
