import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { modelMessages } from './messages';
import { isArray } from './echo';
import type { JsonWriter } from './json-writer';
import { MCP_BLOCK_TYPES, mcpBlockProblem, toClaudeBlock, type ResultBlock, type ToolResultContentBlock } from './result-blocks';

type Content = ToolResultBlockParam['content'];

/** How much of one result reaches the model. */
export interface ResultLimits {
  /** Characters of text: a string result, or all text and search result blocks together. */
  maxChars: number;
  /** Image and document blocks in one result. */
  maxMediaBlocks: number;
  /** Characters of image and document blocks together (base64 data, URLs, text). */
  maxMediaChars: number;
}

const BLOCK_TYPES = new Set(['text', 'image', 'document', 'search_result', ...MCP_BLOCK_TYPES]);

/**
 * Turns what a tool method returned into `tool_result` content: a string as is, content blocks
 * as given, `undefined` as nothing, anything else as JSON (`writer`'s, the tool's own, when given:
 * the same text); all of it within `limits`. Throws when
 * the value cannot be represented (circular, BigInt, a getter that throws, a malformed block);
 * the caller treats that as an internal error.
 */
export function shapeResult(value: unknown, limits: ResultLimits, writer?: JsonWriter): Content {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return capText(value, limits.maxChars);
  if (looksLikeBlocks(value)) return forClaude(capBlocks(copyBlocks(value), limits));
  const json = writer ? writer.write(value) : JSON.stringify(value);
  if (json === undefined) throw new TypeError(`tool returned a value JSON cannot represent (${typeof value})`);
  return capText(json, limits.maxChars);
}

/** A `ToolError`'s content, within `limits`. Throws when it is neither a string nor well-formed blocks. */
export function shapeToolErrorContent(content: unknown, limits: ResultLimits): Content {
  if (typeof content === 'string') return capText(content, limits.maxChars);
  if (isArray(content)) return forClaude(capBlocks(copyBlocks(content), limits));
  throw new TypeError(`ToolError content must be a string or content blocks, got ${typeof content}`);
}

/**
 * The blocks of `value` within `limits`, as returned, when some of them have no Claude type
 * (audio, resources): what a surface that has those types (MCP) sends instead of the content.
 */
export function mcpBlocksOf(value: unknown, limits: ResultLimits): ResultBlock[] | undefined {
  if (!isArray(value) || !value.some((b) => MCP_BLOCK_TYPES.has((b as { type?: unknown } | null)?.type as string)) || !looksLikeBlocks(value)) return undefined;
  return capBlocks(copyBlocks(value), limits);
}

function forClaude(blocks: ResultBlock[]): ToolResultContentBlock[] {
  return blocks.some((b) => MCP_BLOCK_TYPES.has(b.type)) ? blocks.map(toClaudeBlock) : (blocks as ToolResultContentBlock[]);
}

/** Cuts `text` at `maxChars` with a marker saying how much was left out. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // Never split a surrogate pair (an emoji, say): a lone surrogate makes the request body invalid
  // JSON for the API.
  const end = maxChars > 0 && isHighSurrogate(text.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return text.slice(0, end) + modelMessages.truncated(text.length - end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function looksLikeBlocks(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((b) => typeof b === 'object' && b !== null && BLOCK_TYPES.has((b as { type?: unknown }).type as string))
  );
}

/**
 * A plain-data copy of the blocks, checked block by block. The copy owns nothing of the tool's
 * objects, so nothing in the reply can run code (a getter, a Proxy trap) when it is sent later.
 */
function copyBlocks(blocks: unknown[]): ResultBlock[] {
  const copy: unknown = JSON.parse(JSON.stringify(blocks) ?? 'null');
  if (!Array.isArray(copy)) throw new TypeError('content blocks did not survive a JSON copy');
  copy.forEach((block, index) => {
    const problem = blockProblem(block);
    if (problem) throw new TypeError(`content block ${index} is malformed: ${problem}`);
  });
  return copy as ResultBlock[];
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';

function blockProblem(block: unknown): string | undefined {
  if (!isObject(block)) return 'not an object';
  switch (block.type) {
    case 'text':
      return isString(block.text) ? undefined : '`text` must be a string';
    case 'image':
      return sourceProblem(block.source, ['base64', 'url', 'file']);
    case 'document': {
      const source = block.source;
      if (isObject(source) && source.type === 'content') {
        const ok = isString(source.content) || (Array.isArray(source.content) && source.content.every((b) => blockProblem(b) === undefined));
        return ok ? undefined : '`source.content` must be a string or text and image blocks';
      }
      return sourceProblem(source, ['base64', 'text', 'url', 'file']);
    }
    case 'search_result':
      if (!isString(block.source) || !isString(block.title)) return '`source` and `title` must be strings';
      return Array.isArray(block.content) && block.content.every((b) => isObject(b) && b.type === 'text' && isString(b.text))
        ? undefined
        : '`content` must be a list of text blocks';
    default:
      return mcpBlockProblem(block);
  }
}

function sourceProblem(source: unknown, types: readonly string[]): string | undefined {
  if (!isObject(source) || !types.includes(source.type as string)) return `\`source.type\` must be one of ${types.join(', ')}`;
  const field = source.type === 'url' ? 'url' : source.type === 'file' ? 'file_id' : 'data';
  return isString(source[field]) ? undefined : `\`source.${field}\` must be a string`;
}

/**
 * Text and search results share the character budget; images and documents have their own count
 * and size. A block that does not fit is replaced by a line saying what was left out.
 */
function capBlocks(blocks: ResultBlock[], limits: ResultLimits): ResultBlock[] {
  let textBudget = limits.maxChars;
  let mediaBudget = limits.maxMediaChars;
  let media = 0;
  let mediaOmitted = 0;
  const kept: ResultBlock[] = [];
  for (const block of blocks) {
    if (block.type === 'text') {
      kept.push({ ...block, text: capText(block.text, Math.max(textBudget, 0)) });
      textBudget -= block.text.length;
      continue;
    }
    const size = JSON.stringify(block).length;
    if (block.type === 'image' || block.type === 'document' || block.type === 'audio' || (block.type === 'resource' && block.data !== undefined)) {
      if (media >= limits.maxMediaBlocks) {
        mediaOmitted++;
        continue;
      }
      media++;
      if (size > mediaBudget) {
        kept.push({ type: 'text', text: modelMessages.blockOmitted(block.type, size, Math.max(mediaBudget, 0)) });
        continue;
      }
      mediaBudget -= size;
      kept.push(block);
      continue;
    }
    if (size > textBudget) {
      kept.push({ type: 'text', text: modelMessages.blockOmitted(block.type, size, Math.max(textBudget, 0)) });
      continue;
    }
    textBudget -= size;
    kept.push(block);
  }
  if (mediaOmitted > 0) kept.push({ type: 'text', text: modelMessages.blocksOmitted(mediaOmitted, limits.maxMediaBlocks) });
  return kept;
}
