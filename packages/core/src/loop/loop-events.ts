import type { StopReason, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ToolEvent } from '../execution/call.types';
import type { ToolLoopLimit } from './stop-reasons';
import type { SupersededDecision } from '../approval/decisions';

/**
 * What `runToolLoop` reports to `onEvent`: its requests, responses and limits, a resume's decisions
 * that an earlier attempt's journaled answer superseded, and the container's tool events.
 */
export type ToolLoopEvent =
  | { type: 'request'; turn: number; at: number; messageCount: number }
  | { type: 'response'; turn: number; at: number; durationMs: number; stopReason: StopReason | null; usage: Usage }
  | {
      type: 'limit';
      limit: ToolLoopLimit;
      at: number;
      /** The `tool_use` ids answered "not executed" because of the limit. */
      notExecuted: string[];
    }
  | ({ type: 'decision_superseded'; at: number } & SupersededDecision)
  | ToolEvent;
