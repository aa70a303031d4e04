import type {
  ServerToolUseBlock,
  TextBlock,
  ToolUseBlock,
  WebSearchResultBlock,
  WebSearchToolResultBlock,
} from '@anthropic-ai/sdk/resources/messages';

/** A `tool_use` block as the API returns it, for tests and scripted turns. */
export function toolUse(id: string, name: string, input: unknown): ToolUseBlock {
  return { type: 'tool_use', id, name, input, caller: { type: 'direct' } } as ToolUseBlock;
}

/** A `text` block as the API returns it. */
export function text(value: string): TextBlock {
  return { type: 'text', text: value, citations: null };
}

/** A call to a tool Anthropic runs (`web_search`, ...): the client must pass it through untouched. */
export function serverToolUse(id: string, name: ServerToolUseBlock['name'], input: unknown): ServerToolUseBlock {
  return { type: 'server_tool_use', id, name, input, caller: { type: 'direct' } };
}

/** The result of a `web_search` server call, as it arrives inside the assistant content. */
export function webSearchResult(toolUseId: string, results: readonly { url: string; title: string }[]): WebSearchToolResultBlock {
  return {
    type: 'web_search_tool_result',
    tool_use_id: toolUseId,
    caller: { type: 'direct' },
    content: results.map((r): WebSearchResultBlock => ({
      type: 'web_search_result',
      url: r.url,
      title: r.title,
      encrypted_content: `scripted:${r.url}`,
      page_age: null,
    })),
  };
}
