import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';

/**
 * What the model reads for a `tool_use` whose caller the tool does not allow (`allowed_callers`),
 * or `undefined` when it may run. Unknown tools are left to the container, which names the known ones.
 */
export function callerRefusal(block: ToolUseBlock, allowed: ReadonlyMap<string, readonly string[]>): string | undefined {
  const callers = allowed.get(block.name);
  if (!callers) return undefined;
  const caller = callerOf(block);
  if (callers.includes(caller)) return undefined;
  return `Not run: ${block.name} cannot be called from ${caller}; it accepts calls from ${callers.join(', ')}.`;
}

/** `'direct'` for a call the model made itself, else the code execution tool version that made it. */
export function callerOf(block: { caller?: { type: string } | null }): string {
  return block.caller?.type ?? 'direct';
}
