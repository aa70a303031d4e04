import type { ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ToolContainer } from '../container';

const TOOL_SEARCH_TYPES = /^tool_search_tool_(regex|bm25)(_\d{8})?$/;

/**
 * The `tools` of every request of a run: the container's definitions, its tool search tool, then
 * the caller's server tools. Refuses what the API would refuse with a 400 on the first request:
 * a deferred tool without a tool search tool to find it, or a deferred tool search tool.
 */
export function requestTools(container: ToolContainer<unknown>, serverTools: readonly ToolUnion[] | undefined, name: string): ToolUnion[] {
  const search = container.searchTool();
  const tools: ToolUnion[] = [...container.definitions(), ...(search ? [search] : []), ...(serverTools ?? [])];
  const searchTools = tools.filter(isToolSearchTool);
  const deferredSearch = searchTools.find(isDeferred);
  if (deferredSearch) throw new TypeError(`${name}: the tool search tool ${toolName(deferredSearch)} cannot itself have defer_loading; it is what loads the others.`);
  const deferred = tools.filter(isDeferred).map(toolName);
  if (deferred.length > 0 && searchTools.length === 0) {
    throw new TypeError(
      `${name}: ${deferred.join(', ')} ${deferred.length === 1 ? 'has' : 'have'} defer_loading, so the model cannot see ${deferred.length === 1 ? 'it' : 'them'} ` +
        "without the tool search tool; create the ToolContainer with toolSearch: 'regex' or 'bm25'.",
    );
  }
  return tools;
}

/** Whether the definition waits for a tool search to load it. */
export function isDeferred(tool: ToolUnion): boolean {
  return (tool as { defer_loading?: unknown }).defer_loading === true;
}

function toolName(tool: ToolUnion): string {
  return String((tool as { name?: unknown }).name);
}

export function isToolSearchTool(tool: ToolUnion): boolean {
  return 'type' in tool && typeof tool.type === 'string' && TOOL_SEARCH_TYPES.test(tool.type);
}

/** Who may call each client tool, as its definition says; the API's default is `['direct']`. */
export function allowedCallers(tools: readonly ToolUnion[]): Map<string, readonly string[]> {
  const allowed = new Map<string, readonly string[]>();
  for (const tool of tools) {
    const { type, name, allowed_callers } = tool as { type?: string | null; name?: unknown; allowed_callers?: readonly string[] };
    if ((type !== undefined && type !== null && type !== 'custom') || typeof name !== 'string') continue;
    allowed.set(name, allowed_callers ?? ['direct']);
  }
  return allowed;
}
