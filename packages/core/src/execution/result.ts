import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolResultContentBlock } from './tool-error';
import { modelMessages } from './messages';

type Content = ToolResultBlockParam['content'];

const BLOCK_TYPES = new Set(['text', 'image', 'document', 'search_result']);

/**
 * Turns what a tool method returned into `tool_result` content: a string as is, content blocks
 * as given, `undefined` as nothing, anything else as JSON. Throws when the value cannot be
 * serialized (circular, BigInt); the caller treats that as an internal error.
 */
export function shapeResult(value: unknown, maxChars: number): Content {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return truncate(value, maxChars);
  if (isContentBlocks(value)) return truncateBlocks(value, maxChars);
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(`tool returned a value JSON cannot represent (${typeof value})`);
  return truncate(json, maxChars);
}

function isContentBlocks(value: unknown): value is ToolResultContentBlock[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((b) => typeof b === 'object' && b !== null && BLOCK_TYPES.has((b as { type?: unknown }).type as string))
  );
}

function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // Never split a surrogate pair (an emoji, say): a lone surrogate makes the request body invalid
  // JSON for the API.
  const end = maxChars > 0 && isHighSurrogate(text.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return text.slice(0, end) + modelMessages.truncated(text.length - end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The character budget is shared by all text blocks; other blocks pass through. */
function truncateBlocks(blocks: ToolResultContentBlock[], maxChars: number): ToolResultContentBlock[] {
  let budget = maxChars;
  return blocks.map((block) => {
    if (block.type !== 'text') return block;
    const text = truncate(block.text, Math.max(budget, 0));
    budget -= block.text.length;
    return { ...block, text };
  });
}
