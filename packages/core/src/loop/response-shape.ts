import type { ContentBlock, Message, Usage } from '@anthropic-ai/sdk/resources/messages';
import { keyProblem, textProblem } from '../approval/storable-key';

/**
 * Deeper inputs are replaced by `{}` in the stored conversation and their calls refused: the
 * SDK serializes a request with `JSON.stringify`, which overflows the stack a few thousand
 * levels down, and a conversation holding such a block could never be sent again.
 */
export const MAX_TRANSCRIPT_DEPTH = 512;

/** A response the loop cannot use as the API documents it; the run ends with a `ToolLoopError`. */
export class MalformedResponse extends Error {
  override name = 'MalformedResponse';
}

/** Why a `messages.create` response cannot be used, or `undefined` when it can. */
export function responseProblem(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return `the response is ${describeValue(message)}, not a message`;
  const { content, usage } = message as Partial<Message>;
  if (!Array.isArray(content)) return `content is ${describeValue(content)}, not a list of blocks`;
  for (let i = 0; i < content.length; i++) {
    const problem = blockProblem(content[i]);
    if (problem) return `content[${i}] ${problem}`;
  }
  return usageProblem(usage);
}

/** Why a block cannot be stored and sent back, or `undefined`. */
export function blockProblem(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') {
    return `is ${describeValue(block)}, not a content block`;
  }
  const { type, id, name } = block as { type: string; id?: unknown; name?: unknown };
  if (type === 'tool_use' && (typeof id !== 'string' || typeof name !== 'string')) return 'is a tool_use without a string id and name';
  // The id keys the call's journal entry: one no store can hold would fail only after the call ran.
  if ((type === 'tool_use' || type === 'server_tool_use') && typeof id === 'string' && keyProblem(id)) return `is a ${type} whose id ${keyProblem(id)}`;
  return undefined;
}

export function usageProblem(usage: unknown): string | undefined {
  if (typeof usage !== 'object' || usage === null) return `usage is ${describeValue(usage)}`;
  const { input_tokens, output_tokens } = usage as Partial<Usage>;
  if (typeof input_tokens !== 'number' || typeof output_tokens !== 'number') return 'usage has no input_tokens and output_tokens';
  return undefined;
}

/** Whether `value` nests deeper than `max` levels; iterative, so any depth is safe to measure. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The block as it can be stored: a too-deep `tool_use` input becomes `{}`. `unstorable`: its
 * input holds text no system downstream can take as it is (NUL, a lone surrogate); the call is refused.
 */
export function storable(block: ContentBlock): { block: ContentBlock; tooDeep: boolean; unstorable: boolean } {
  if (block.type !== 'tool_use') return { block, tooDeep: false, unstorable: false };
  if (nestsDeeperThan(block.input, MAX_TRANSCRIPT_DEPTH)) return { block: { ...block, input: {} }, tooDeep: true, unstorable: false };
  return { block, tooDeep: false, unstorable: holdsUnstorableText(block.input) };
}

/** Whether a string of `value` (a key or a value, at any depth) holds a NUL or a lone surrogate. */
function holdsUnstorableText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (textProblem(current)) return true;
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, child] of Object.entries(current)) {
        if (textProblem(key)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value === 'undefined' ? 'missing' : `a ${typeof value}`;
}
