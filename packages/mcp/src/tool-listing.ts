import type { Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { ToolDescription } from '@toolwright/core';

/**
 * One tool as `tools/list` shows it: the definition the model sees on the Claude path, with the
 * declared effect and `@Tool` hints as annotations. Only declared hints are sent; for the others
 * MCP's defaults apply, and they assume the worst (destructive, not idempotent, open world).
 */
export function toMcpTool(tool: ToolDescription): McpTool {
  const listed: McpTool = {
    name: tool.name,
    description: tool.definition.description,
    inputSchema: tool.definition.input_schema as McpTool['inputSchema'],
    annotations: annotationsOf(tool),
  };
  if (tool.title !== undefined) listed.title = tool.title;
  if (tool.outputSchema) listed.outputSchema = tool.outputSchema as McpTool['outputSchema'];
  return listed;
}

function annotationsOf(tool: ToolDescription): ToolAnnotations {
  const annotations: ToolAnnotations = { readOnlyHint: tool.effect === 'read' };
  // MCP reads destructive and idempotent hints only for tools that are not read-only.
  if (tool.effect === 'write') {
    if (tool.destructive !== undefined) annotations.destructiveHint = tool.destructive;
    if (tool.idempotent !== undefined) annotations.idempotentHint = tool.idempotent;
  }
  if (tool.openWorld !== undefined) annotations.openWorldHint = tool.openWorld;
  return annotations;
}
