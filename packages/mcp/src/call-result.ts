import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { CallResult, ResultBlock } from '@toolwright/core';

/**
 * A container answer as a `tools/call` result. Failures are results with `isError: true` and
 * the same short text the model gets on the Claude path. An object result also travels as
 * `structuredContent`, exactly the JSON of the text, when the text was not cut at
 * `maxResultChars`; a cut result of a tool that declares an `outputSchema` is an error, since a
 * client would reject a success without `structuredContent`.
 */
export function toMcpResult(answer: CallResult, hasOutputSchema: boolean): CallToolResult {
  const content = answer.blocks ? answer.blocks.map(toMcpBlock) : toMcpContent(answer.result.content);
  if (answer.outcome !== 'ok') return { content, isError: true };
  const structured = structuredContentOf(answer);
  if (structured) return { content, structuredContent: structured };
  return hasOutputSchema ? { content, isError: true } : { content };
}

/**
 * The text of an object result is its JSON, cut or not; a cut one ends with the truncation
 * marker, never with `}`, so it is not parsed (nor stringified a second time to find out).
 */
function structuredContentOf(answer: CallResult): Record<string, unknown> | undefined {
  const { value } = answer;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const text = answer.result.content;
  if (typeof text !== 'string' || !text.endsWith('}')) return undefined;
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

function toMcpContent(content: CallResult['result']['content']): ContentBlock[] {
  if (content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map(toMcpBlock);
}

function toMcpBlock(block: ResultBlock): ContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      if (block.source.type === 'base64') return { type: 'image', data: block.source.data, mimeType: block.source.media_type };
      break;
    case 'audio':
      return { type: 'audio', data: block.source.data, mimeType: block.source.media_type };
    case 'resource': {
      const mimeType = block.media_type !== undefined ? { mimeType: block.media_type } : {};
      const resource = block.text !== undefined ? { uri: block.uri, ...mimeType, text: block.text } : { uri: block.uri, ...mimeType, blob: block.data! };
      return { type: 'resource', resource };
    }
    case 'resource_link': {
      const { uri, name, title, description, media_type } = block;
      return { type: 'resource_link', uri, name, ...(title !== undefined && { title }), ...(description !== undefined && { description }), ...(media_type !== undefined && { mimeType: media_type }) };
    }
    case 'document':
      if (block.source.type === 'text') return { type: 'resource', resource: { uri: `toolwright:document/${block.title ?? 'text'}`, mimeType: 'text/plain', text: block.source.data } };
      if (block.source.type === 'base64') return { type: 'resource', resource: { uri: `toolwright:document/${block.title ?? 'document'}`, mimeType: block.source.media_type, blob: block.source.data } };
      break;
  }
  // A search result, or an image or document by URL or file id: MCP has no such block, so it travels as its JSON.
  return { type: 'text', text: JSON.stringify(block) };
}
