import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Tool } from 'ai';

/** What a tool's `execute` returns: the container's result content as it is. */
export type ContainerOutput = Exclude<ToolResultBlockParam['content'], undefined>;

/** What the AI SDK sends the model for a tool's output (`ai` does not export the type by name). */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool<unknown, ContainerOutput>['toModelOutput']>>>;

/** The container's result as the AI SDK's model output: text as text, blocks as content parts. */
export function modelOutput(output: ContainerOutput): ToolResultOutput {
  if (typeof output === 'string') return { type: 'text', value: output };
  return {
    type: 'content',
    value: output.map((block) => {
      if (block.type === 'text') return { type: 'text', text: block.text };
      if ((block.type === 'image' || block.type === 'document') && block.source.type === 'base64') {
        return { type: 'file', data: { type: 'data', data: block.source.data }, mediaType: block.source.media_type };
      }
      // Anything else has no AI SDK part of its own: the model reads it as JSON.
      return { type: 'text', text: JSON.stringify(block) };
    }),
  };
}
