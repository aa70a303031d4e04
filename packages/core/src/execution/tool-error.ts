import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';

/** Content a `tool_result` may carry when it is a list of blocks. */
export type ToolResultContentBlock = Exclude<ToolResultBlockParam['content'], string | undefined>[number];

/**
 * An expected failure the model should read and act on ("order A-9999 not found"). Its message,
 * or its content blocks, reach the model as an `is_error` result. Any other exception is logged
 * and replaced by a generic line.
 */
export class ToolError extends Error {
  override name = 'ToolError';
  readonly content: string | ToolResultContentBlock[];

  constructor(content: string | ToolResultContentBlock[]) {
    super(typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n'));
    this.content = content;
  }
}
