import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolLoopUsage } from './usage';

/**
 * `runToolLoop` rejects with this when a request fails for good (after the SDK's own retries).
 * It carries the conversation so far, every `tool_use` answered, so the run can be resumed by
 * passing `messages` back.
 */
export class ToolLoopError extends Error {
  override name = 'ToolLoopError';
  readonly messages: MessageParam[];
  readonly turns: number;
  readonly usage: ToolLoopUsage;
  /**
   * The run in `store`, when one was given: saved and released (the message says if it could not
   * be), so `resumeToolLoop({ runId, decisions: {} })` carries it on from its journal.
   */
  readonly runId?: string;

  constructor(message: string, details: { cause: unknown; messages: MessageParam[]; turns: number; usage: ToolLoopUsage; runId?: string }) {
    super(message, { cause: details.cause });
    this.messages = details.messages;
    this.turns = details.turns;
    this.usage = details.usage;
    if (details.runId !== undefined) this.runId = details.runId;
  }
}
