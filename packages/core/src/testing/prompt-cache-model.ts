import type { ScriptedRequestBody } from './turns';

/** What the cache did for one request, in the API's `usage` fields. */
export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** The API checks for a cached prefix at a breakpoint and this many blocks before it. */
const LOOKBACK_BLOCKS = 20;
const CHARS_PER_TOKEN = 4;

/**
 * A model of the API's prompt cache, for tests and benchmarks: the request is read as its
 * prefix order (tools, system, then each message block); each `cache_control` breakpoint
 * writes the prefix up to it, and a later request reads the longest written prefix found at
 * one of its breakpoints or up to 20 blocks before one. Tokens are estimated as 4 characters
 * each; the minimum cacheable length of a model is not modelled.
 */
export class PromptCacheModel {
  /** Characters of the request's prompt (deferred tools only where loaded), and how many lie before its last breakpoint. */
  static coverage(body: ScriptedRequestBody): { chars: number; coveredChars: number } {
    const segments = prefixSegments(body);
    let chars = 0;
    let coveredChars = 0;
    for (const segment of segments) {
      chars += segment.text.length;
      if (segment.breakpoint) coveredChars = chars;
    }
    return { chars, coveredChars };
  }

  private readonly written = new Set<string>();

  usage(body: ScriptedRequestBody): CacheUsage {
    const segments = prefixSegments(body);
    const tokens: number[] = [];
    let total = 0;
    for (const segment of segments) tokens.push((total += Math.ceil(segment.text.length / CHARS_PER_TOKEN)));
    const keys: string[] = [];
    let key = '';
    for (const segment of segments) keys.push((key = `${key}\u0000${segment.text}`));
    const breakpoints = segments.flatMap((s, i) => (s.breakpoint ? [i] : []));
    let read = 0;
    for (const at of breakpoints) {
      for (let i = at; i >= 0 && i >= at - LOOKBACK_BLOCKS; i--) {
        if (this.written.has(keys[i])) {
          read = Math.max(read, tokens[i]);
          break;
        }
      }
    }
    const last = breakpoints.at(-1);
    const written = last === undefined ? 0 : Math.max(0, tokens[last] - read);
    for (const at of breakpoints) this.written.add(keys[at]);
    return { input_tokens: total - read - written, cache_creation_input_tokens: written, cache_read_input_tokens: read };
  }
}

interface Segment {
  /** The segment as the cache compares it: without its own `cache_control`. */
  text: string;
  breakpoint: boolean;
}

/**
 * The request in prefix order, one segment per tool, system block and message block. A deferred
 * tool is not in the prompt up front: its definition counts where a `tool_reference` loads it.
 */
export function prefixSegments(body: ScriptedRequestBody): Segment[] {
  const segments: Segment[] = [];
  const deferred = new Map<string, string>();
  for (const tool of body.tools ?? []) {
    const { name, defer_loading } = tool as { name?: string; defer_loading?: boolean };
    if (defer_loading === true && name) deferred.set(name, JSON.stringify(tool));
  }
  const add = (value: unknown, role = '') => {
    const { cache_control, ...rest } = (typeof value === 'object' && value !== null ? value : { text: value }) as { cache_control?: unknown };
    const text = JSON.stringify(rest);
    const loaded = [...text.matchAll(/"tool_name":"([^"]+)"/g)].map((m) => deferred.get(m[1]) ?? '').join('');
    segments.push({ text: role + text + loaded, breakpoint: cache_control != null });
  };
  for (const tool of body.tools ?? []) if (!deferred.has((tool as { name?: string }).name ?? '')) add(tool);
  const system = body.system;
  if (typeof system === 'string') add({ type: 'text', text: system });
  else if (Array.isArray(system)) system.forEach((block) => add(block));
  for (const message of body.messages) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    content.forEach((block, i) => add(block, i === 0 ? `${message.role}:` : ''));
  }
  return segments;
}
