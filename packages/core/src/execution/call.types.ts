import type { ResultBlock } from './result-blocks';
import type { Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolEffect, ToolOptions } from '../decorators/tool-options';
import type { InstancePlan, ParameterBinding } from '../manifest/manifest.types';
import type { CompiledInputCheck } from '../validation/compiled-check';

/** A tool ready to be called: its manifest entry joined with the provider instance. */
export interface RegisteredTool {
  name: string;
  effect: ToolEffect;
  definition: Tool;
  inputClass: new () => object;
  parameters: readonly ParameterBinding[];
  /** The full schema the input is checked against, when `definition` sends a strict subset. */
  inputSchema?: Tool.InputSchema;
  inputCheck?: CompiledInputCheck;
  instancePlan?: InstancePlan;
  instance: object;
  method: string;
  options: ToolOptions;
  outputSchema?: Record<string, unknown>;
}

/** How a call ended; `ok` is the only success. */
export type CallOutcome =
  | 'ok'
  | 'unknown_tool'
  | 'invalid_input'
  | 'refused'
  | 'tool_error'
  | 'internal_error'
  | 'timeout'
  | 'cancelled'
  | 'not_executed';

export interface CallResult {
  result: ToolResultBlockParam;
  outcome: CallOutcome;
  /** What the method returned, on `ok`: surfaces with structured results (MCP) send it as is. */
  value?: unknown;
  /** The result's blocks within the limits, as returned, when some have no Claude type (audio, resources): MCP sends these. */
  blocks?: ResultBlock[];
}

/**
 * The part of a `tool_use` block a call needs. `id` and `name` are what the block held: strings
 * from the API, anything from a caller that builds blocks itself; the container checks them
 * before a call runs, and messages echo them through `echo`.
 */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** Observability: what an application can log, trace or draw as a timeline. */
export type ToolEvent =
  | { type: 'call_start'; tool: string; toolUseId: string; effect: ToolEffect | 'unknown'; at: number }
  | {
      type: 'call_end';
      tool: string;
      toolUseId: string;
      effect: ToolEffect | 'unknown';
      at: number;
      durationMs: number;
      outcome: CallOutcome;
    }
  | {
      type: 'call_skipped';
      tool: string;
      toolUseId: string;
      effect: ToolEffect | 'unknown';
      at: number;
      reason: SkipReason;
    };

/**
 * Why a call was answered without running: an earlier write failed, the batch was cancelled, or
 * its message used one `tool_use` id for several blocks (then no call of it runs).
 */
export type SkipReason = 'halted' | 'cancelled' | 'duplicate_id';

export function answer(call: ToolCall, outcome: CallOutcome, content: ToolResultBlockParam['content']): CallResult {
  const result: ToolResultBlockParam = { type: 'tool_result', tool_use_id: call.id };
  if (content !== undefined) result.content = content;
  if (outcome !== 'ok') result.is_error = true;
  return { result, outcome };
}
