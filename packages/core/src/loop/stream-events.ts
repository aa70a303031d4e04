import type { StopReason, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { CallOutcome } from '../execution/call.types';
import type { ToolEffect } from '../decorators/tool-options';
import type { PendingCall } from '../approval/run-state';
import type { SupersededDecision } from '../approval/decisions';
import type { ToolLoopLimit, ToolLoopStopReason } from './stop-reasons';
import type { ToolLoopUsage } from './usage';

/** `'unknown'` for a tool the container does not have: it is scheduled as a write. */
export type StreamedEffect = ToolEffect | 'unknown';


/**
 * What `streamToolLoop` yields, in order. `turn` is the 1-based request the event belongs to;
 * `at` is `Date.now()` when it happened. Every `tool_call` gets one `tool_end`; a call that
 * ran has one `tool_start` before it. `done` is always last.
 */
export type ToolStreamEvent =
  | { type: 'turn_start'; turn: number; at: number; messageCount: number }
  | { type: 'text_delta'; turn: number; index: number; text: string }
  | { type: 'thinking_delta'; turn: number; index: number; thinking: string }
  /** Partial JSON of a call's input as the model writes it, for UIs; never parsed. */
  | { type: 'tool_input_delta'; turn: number; index: number; toolUseId: string; toolName: string; partialJson: string }
  /** A complete `tool_use` block. */
  | { type: 'tool_call'; turn: number; index: number; call: ToolUseBlock; effect: StreamedEffect; at: number }
  /** `eager`: the call started while the model was still writing the message. */
  | { type: 'tool_start'; turn: number; toolUseId: string; toolName: string; effect: StreamedEffect; eager: boolean; at: number }
  | {
      type: 'tool_end';
      turn: number;
      toolUseId: string;
      toolName: string;
      effect: StreamedEffect;
      outcome: CallOutcome;
      isError: boolean;
      /** 0 for a call answered without running. */
      durationMs: number;
      at: number;
    }
  | { type: 'turn_end'; turn: number; stopReason: StopReason | null; usage: ToolLoopUsage; at: number }
  /** Calls that wait for a person's decision (approval) on the run `runId`; nothing of the batch runs until then. */
  | { type: 'approval_required'; turn: number; runId: string; pending: PendingCall[]; at: number }
  | { type: 'limit'; limit: ToolLoopLimit; at: number; notExecuted: string[] }
  /** A resumed run's decision not applied: the call was answered under an earlier attempt's (first of all). */
  | ({ type: 'decision_superseded'; at: number } & SupersededDecision)
  | {
      type: 'done';
      at: number;
      /** `'error'` when the run rejected with a `ToolLoopError` (or a `TypeError` for bad options): see `error`. */
      stopReason: ToolLoopStopReason | 'error';
      text: string;
      turns: number;
      usage: ToolLoopUsage;
      error?: string;
    };
