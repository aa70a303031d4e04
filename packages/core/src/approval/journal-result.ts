import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';

/** `value` if it is a `tool_result` block with an id, the only thing a result journal keeps. */
export function checkJournalResult(value: ToolResultBlockParam): ToolResultBlockParam {
  if (typeof value !== 'object' || value === null || value.type !== 'tool_result' || typeof value.tool_use_id !== 'string' || value.tool_use_id === '') {
    throw new TypeError('recordResult takes a tool_result block with a non-empty tool_use_id, as tools.execute() returns.');
  }
  return value;
}
