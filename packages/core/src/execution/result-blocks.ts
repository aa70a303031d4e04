import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';

/** Content a `tool_result` may carry when it is a list of blocks. */
export type ToolResultContentBlock = Exclude<ToolResultBlockParam['content'], string | undefined>[number];

/** Sound, base64-encoded. MCP clients receive it; the Claude API cannot read audio, so the model gets a note instead. */
export interface AudioBlock {
  type: 'audio';
  source: { type: 'base64'; media_type: string; data: string };
}

/** A resource's contents inside the result: `text`, or base64 `data` (a blob). */
export interface ResourceBlock {
  type: 'resource';
  uri: string;
  media_type?: string;
  text?: string;
  data?: string;
}

/** A pointer to a resource the client can fetch itself. */
export interface ResourceLinkBlock {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  media_type?: string;
}

/** What a tool may return as content blocks: the `tool_result` blocks of the Claude API, and the MCP blocks it has no type for. */
export type ResultBlock = ToolResultContentBlock | AudioBlock | ResourceBlock | ResourceLinkBlock;

export const MCP_BLOCK_TYPES: ReadonlySet<string> = new Set(['audio', 'resource', 'resource_link']);

type Loose = Record<string, unknown>;
const isString = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with one of the MCP-only blocks, or `undefined`. */
export function mcpBlockProblem(block: Loose): string | undefined {
  switch (block.type) {
    case 'audio': {
      const source = block.source;
      if (!isObject(source) || source.type !== 'base64') return '`source.type` must be base64';
      return isString(source.data) && isString(source.media_type) ? undefined : '`source.data` and `source.media_type` must be strings';
    }
    case 'resource':
      if (!isString(block.uri)) return '`uri` must be a string';
      if (isString(block.text) === isString(block.data)) return 'exactly one of `text` and `data` must be a string';
      return block.media_type === undefined || isString(block.media_type) ? undefined : '`media_type` must be a string';
    case 'resource_link':
      return isString(block.uri) && isString(block.name) ? undefined : '`uri` and `name` must be strings';
    default:
      return `unknown block type ${JSON.stringify(block.type)?.slice(0, 40)}`;
  }
}

/**
 * The closest block the Claude API has: a text resource as a text document, a PDF or image blob
 * as a document or image, a link as a line of text. Audio and other blobs cannot be read by the
 * model; it is told what was there instead.
 */
export function toClaudeBlock(block: ResultBlock): ToolResultContentBlock {
  switch (block.type) {
    case 'audio':
      return { type: 'text', text: `[audio (${block.source.media_type}) not shown: the model cannot read audio]` };
    case 'resource': {
      const mediaType = block.media_type ?? 'application/octet-stream';
      if (block.text !== undefined) return { type: 'document', title: block.uri, source: { type: 'text', media_type: 'text/plain', data: block.text } };
      if (mediaType === 'application/pdf') return { type: 'document', title: block.uri, source: { type: 'base64', media_type: 'application/pdf', data: block.data! } };
      if (IMAGE_TYPES.has(mediaType)) return { type: 'image', source: { type: 'base64', media_type: mediaType as ImageType, data: block.data! } };
      return { type: 'text', text: `[resource ${block.uri} (${mediaType}) not shown: the model cannot read this type]` };
    }
    case 'resource_link':
      return { type: 'text', text: `Resource: ${block.title ?? block.name} <${block.uri}>${block.description ? ` - ${block.description}` : ''}` };
    default:
      return block;
  }
}

type ImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
const IMAGE_TYPES: ReadonlySet<string> = new Set<ImageType>(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
