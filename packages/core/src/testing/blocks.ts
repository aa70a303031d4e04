import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';

/** A `tool_use` block as the API returns it, for tests and scripted turns. */
export function toolUse(id: string, name: string, input: unknown): ToolUseBlock {
  return { type: 'tool_use', id, name, input, caller: { type: 'direct' } } as ToolUseBlock;
}
