import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallResult, ToolResultContentBlock } from '@toolwright/core';

type McpContent = CallToolResult['content'][number];

/**
 * A container answer as a `tools/call` result. Failures are results with `isError: true` and
 * the same short text the model gets on the Claude path. An object result also travels as
 * `structuredContent`, exactly the JSON of the text, when the text was not cut at
 * `maxResultChars`; a cut result of a tool that declares an `outputSchema` is an error, since a
 * client would reject a success without `structuredContent`.
 */
export function toMcpResult(answer: CallResult, hasOutputSchema: boolean): CallToolResult {
  const content = toMcpContent(answer.result.content);
  if (answer.outcome !== 'ok') return { content, isError: true };
  const structured = structuredContentOf(answer);
  if (structured) return { content, structuredContent: structured };
  return hasOutputSchema ? { content, isError: true } : { content };
}

function structuredContentOf(answer: CallResult): Record<string, unknown> | undefined {
  const { value } = answer;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const text = answer.result.content;
  if (typeof text !== 'string' || text !== JSON.stringify(value)) return undefined;
  return JSON.parse(text) as Record<string, unknown>;
}

function toMcpContent(content: CallResult['result']['content']): McpContent[] {
  if (content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return (content as ToolResultContentBlock[]).map(toMcpBlock);
}

function toMcpBlock(block: ToolResultContentBlock): McpContent {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image' && block.source.type === 'base64') return { type: 'image', data: block.source.data, mimeType: block.source.media_type };
  // MCP has no document or search-result block: they travel as their JSON, which a client can still read.
  return { type: 'text', text: JSON.stringify(block) };
}
