/** The `tool_use` id every dispatch path answers, ours and the rivals'. */
export const TOOL_CALL_ID = 'toolu_bench';

/** The block that goes back to Claude for one tool call, as each rival's Anthropic integration sends it. */
interface ToolResultBlock {
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
