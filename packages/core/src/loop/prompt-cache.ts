import type { ContentBlockParam, MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { isDeferred } from './request-tools';

/** The API refuses a request with more `cache_control` breakpoints than this. */
export const MAX_CACHE_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/** The parts of a request that may hold a breakpoint. */
export interface CacheableRequest {
  tools: readonly ToolUnion[];
  system?: unknown;
  messages: readonly MessageParam[];
  params?: object;
}

/** Every `cache_control` the request carries: the top-level one, tools, system blocks, message blocks. */
export function countBreakpoints(request: CacheableRequest): number {
  const marked = (value: unknown) => typeof value === 'object' && value !== null && (value as { cache_control?: unknown }).cache_control != null;
  let count = marked(request.params) ? 1 : 0;
  count += request.tools.filter(marked).length;
  if (Array.isArray(request.system)) count += request.system.filter(marked).length;
  for (const message of request.messages) {
    if (Array.isArray(message.content)) count += message.content.filter(marked).length;
  }
  return count;
}

/**
 * The tools with a breakpoint after the last one loaded up front, so every request of a run reads
 * the definitions from the cache. A deferred tool is not part of the prefix: it loads where a
 * search finds it.
 */
export function markTools(tools: readonly ToolUnion[]): ToolUnion[] {
  const marked = [...tools];
  for (let i = marked.length - 1; i >= 0; i--) {
    if (isDeferred(marked[i])) continue;
    marked[i] = { ...marked[i], cache_control: EPHEMERAL } as ToolUnion;
    break;
  }
  return marked;
}

interface Position {
  message: number;
  block: number;
}

/**
 * The breakpoint that moves with the conversation: on each request, the last block that can
 * carry one (not thinking, not empty text) of the last message, and also where it was on the
 * request before, so the entry that request wrote is read back exactly however many blocks
 * came after it (the API looks back only about 20 blocks from a breakpoint). Markers go on
 * copies: the run's `messages` stay as the model and the tools wrote them.
 */
export class MovingBreakpoint {
  private previous?: Position;

  mark(messages: readonly MessageParam[]): MessageParam[] {
    const sent = [...messages];
    const current = lastCacheable(sent);
    // The engine only appends to a run's messages and never edits one it kept, so the previous
    // position still names the same cacheable block.
    for (const position of [this.previous, current]) {
      if (!position) continue;
      const message = sent[position.message];
      const blocks = toBlocks(message.content);
      blocks[position.block] = { ...blocks[position.block], cache_control: EPHEMERAL } as ContentBlockParam;
      sent[position.message] = { ...message, content: blocks } as MessageParam;
    }
    if (current) this.previous = current;
    return sent;
  }
}

function lastCacheable(messages: readonly MessageParam[]): Position | undefined {
  const index = messages.length - 1;
  if (index < 0) return undefined;
  const blocks = toBlocks(messages[index].content);
  for (let block = blocks.length - 1; block >= 0; block--) {
    if (isCacheable(blocks[block])) return { message: index, block };
  }
  return undefined;
}

function toBlocks(content: MessageParam['content']): ContentBlockParam[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
}

/** Thinking blocks cannot carry `cache_control`, nor can an empty text block. */
function isCacheable(block: ContentBlockParam): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return block.type !== 'text' || block.text !== '';
}
