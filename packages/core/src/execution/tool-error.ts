import type { ResultBlock, ToolResultContentBlock } from './result-blocks';

export type { ToolResultContentBlock };

/**
 * Every `ToolError` the constructor made. Membership is the brand: unlike `instanceof`, it runs no
 * code of the thrown value (a Proxy's traps, a faked prototype), so an object that only looks
 * like a `ToolError` can neither pass for one nor throw while being checked.
 */
const constructed = new WeakSet<object>();

/**
 * An expected failure the model should read and act on ("order A-9999 not found"). Its message,
 * or its content blocks, reach the model as an `is_error` result. Any other exception is logged
 * and replaced by a generic line.
 */
export class ToolError extends Error {
  override name = 'ToolError';
  readonly content: string | ResultBlock[];

  constructor(content: string | ResultBlock[]) {
    super(typeof content === 'string' ? content : describeBlocks(content));
    this.content = content;
    constructed.add(this);
  }
}

export function isToolError(value: unknown): value is ToolError {
  return typeof value === 'object' && value !== null && constructed.has(value);
}

function describeBlocks(content: unknown): string {
  if (!Array.isArray(content)) return String(content);
  return content.map((b: { type?: unknown; text?: unknown }) => (b?.type === 'text' ? String(b.text) : `[${String(b?.type)}]`)).join('\n');
}
