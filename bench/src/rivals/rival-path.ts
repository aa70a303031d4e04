/** The block that goes back to Claude for one tool call, as each rival's Anthropic integration sends it. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: true;
}

/** A rival's row in the dispatch benchmark: one call, from the model's input to its tool result. */
export interface RivalPath {
  label: string;
  call(input: { numero: string }): Promise<ToolResultBlock>;
}
