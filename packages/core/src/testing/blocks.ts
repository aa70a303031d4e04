import type {
  CodeExecutionToolResultBlock,
  ServerToolUseBlock,
  TextBlock,
  ToolSearchToolResultBlock,
  ToolUseBlock,
  ToolUseCaller,
  WebSearchResultBlock,
  WebSearchToolResultBlock,
} from '@anthropic-ai/sdk/resources/messages';

/**
 * A `tool_use` block as the API returns it, for tests and scripted turns. `caller` defaults to the
 * model itself; a call from code execution names the `server_tool_use` running the code.
 */
export function toolUse(id: string, name: string, input: unknown, caller: ToolUseCaller = { type: 'direct' }): ToolUseBlock {
  return { type: 'tool_use', id, name, input, caller } as ToolUseBlock;
}

/** The caller of a `tool_use` made by the code of the code execution call `toolId` (programmatic tool calling). */
export function fromCode(toolId: string): ToolUseCaller {
  return { type: 'code_execution_20250825', tool_id: toolId };
}

/** The model running `code` in the code execution tool (`code_execution_20250825`). */
export function codeExecution(id: string, code: string): ServerToolUseBlock {
  return { type: 'server_tool_use', id, name: 'code_execution', input: { code }, caller: { type: 'direct' } };
}

/** The end of a code execution call: what its code printed. */
export function codeExecutionResult(toolUseId: string, stdout: string): CodeExecutionToolResultBlock {
  return { type: 'code_execution_tool_result', tool_use_id: toolUseId, content: { type: 'code_execution_result', stdout, stderr: '', return_code: 0, content: [] } };
}

/** The model searching the deferred tools with the regex or BM25 tool search tool. */
export function toolSearch(id: string, kind: 'regex' | 'bm25', query: string): ServerToolUseBlock {
  return { type: 'server_tool_use', id, name: `tool_search_tool_${kind}`, input: { query }, caller: { type: 'direct' } };
}

/** What a tool search found: a `tool_reference` per tool, which loads its definition. */
export function toolSearchResult(toolUseId: string, toolNames: readonly string[]): ToolSearchToolResultBlock {
  return {
    type: 'tool_search_tool_result',
    tool_use_id: toolUseId,
    content: { type: 'tool_search_tool_search_result', tool_references: toolNames.map((tool_name) => ({ type: 'tool_reference', tool_name })) },
  };
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
