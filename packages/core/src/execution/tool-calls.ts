import type { ToolCall } from './call.types';
import type { ScheduledCall } from './schedule';
import { isArray } from './echo';

/**
 * The `tool_use` blocks of an assistant message's content, read without trusting it: content
 * that is not a list, `null` blocks and blocks that throw when read are passed over, as any
 * other block that is not a `tool_use`. Ids and names are kept as they came, strings or not.
 */
export function readToolCalls(content: unknown, mayWrite: (name: unknown) => boolean): ScheduledCall[] {
  const calls: ScheduledCall[] = [];
  if (!isArray(content)) return calls;
  let length = 0;
  try {
    length = content.length;
  } catch {
    return calls;
  }
  for (let i = 0; i < length; i++) {
    try {
      const block = content[i] as { type?: unknown; id?: unknown; name?: unknown; input?: unknown } | null;
      if (typeof block !== 'object' || block === null || block.type !== 'tool_use') continue;
      calls.push({ id: block.id as string, name: block.name as string, input: block.input, mayWrite: mayWrite(block.name) });
    } catch {
      continue;
    }
  }
  return calls;
}

/**
 * The one call of content that is a single `tool_use` block, as `readToolCalls` reads it, without
 * the list: what most turns are. `undefined` for anything else (then `readToolCalls` decides).
 * Its effect is left to the caller, which looks the tool up anyway.
 */
export function readLoneCall(content: unknown): ToolCall | undefined {
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  const block = content[0] as { type?: unknown; id?: unknown; name?: unknown; input?: unknown } | null;
  if (typeof block !== 'object' || block === null || block.type !== 'tool_use') return undefined;
  return { id: block.id as string, name: block.name as string, input: block.input };
}

/** The first id used by more than one call, with how many use it. */
export function duplicateId(calls: readonly ToolCall[]): { id: unknown; times: number } | undefined {
  if (calls.length < 2) return undefined;
  const seen = new Map<unknown, number>();
  for (const call of calls) seen.set(call.id, (seen.get(call.id) ?? 0) + 1);
  for (const [id, times] of seen) if (times > 1) return { id, times };
  return undefined;
}
