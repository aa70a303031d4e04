import type { ModelMessage } from 'ai';
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolCall, ToolContainer } from '@toolwright/core';

/** A call a person denied, as the step's messages record it. */
export interface DeniedCall {
  call: ToolCall;
  reason?: string;
}

/**
 * Which calls of a step wait for a person, and what the people decided. The AI SDK asks tool by
 * tool, in the model's order, with the step's `messages`; once one call of a step needs
 * approval, the later ones wait too. Resumed, it answers a denied call itself
 * (`execution-denied`) and hands only the approved ones to `execute`, with `messages` ending in
 * the tool message of the decisions: the denials are read from there.
 */
export class StepApprovals<TAuth> {
  private readonly waiting = new WeakSet<object>();
  /** Calls whose approval predicate threw: answered as the container answers them, never run. */
  private readonly refused = new Map<string, ToolResultBlockParam>();
  /** Per resumed step (its `messages`), the denials already handed to the scheduler. */
  private readonly scheduled = new WeakMap<object, Set<string>>();

  constructor(
    private readonly container: ToolContainer<TAuth>,
    private readonly auth: TAuth | undefined,
  ) {}

  async needed(call: ToolCall, step: object): Promise<boolean> {
    if (this.waiting.has(step)) return true;
    const check = await this.container.checkApprovals([{ type: 'tool_use', id: call.id, name: call.name, input: call.input }], { auth: this.auth });
    if (check.answered.length > 0) this.refused.set(call.id, check.answered[0]);
    if (check.pending.length === 0) return false;
    this.waiting.add(step);
    return true;
  }

  refusal(id: string): ToolResultBlockParam | undefined {
    const result = this.refused.get(id);
    this.refused.delete(id);
    return result;
  }

  /**
   * A write before call `id` in its step that failed in the request before the step paused for
   * approval (its tool result in `messages` is an error), read only when the step is resumed
   * with decisions: what halts `id`, as the failed write would have had the step not paused.
   */
  failedWriteBefore(id: string, messages: ModelMessage[]): ToolCall | undefined {
    const decisions = messages.at(-1);
    if (decisions?.role !== 'tool' || !decisions.content.some((part) => part.type === 'tool-approval-response')) return undefined;
    const at = messages.findIndex((m) => m.role === 'assistant' && typeof m.content !== 'string' && m.content.some((p) => p.type === 'tool-call' && p.toolCallId === id));
    if (at < 0) return undefined;
    const failed = new Set<string>();
    for (const message of messages.slice(at + 1)) {
      if (message.role !== 'tool') continue;
      for (const part of message.content) if (part.type === 'tool-result' && (part.output.type === 'error-text' || part.output.type === 'error-json')) failed.add(part.toolCallId);
    }
    const step = messages[at].content as Exclude<ModelMessage['content'], string>;
    for (const part of step) {
      if (part.type !== 'tool-call') continue;
      if (part.toolCallId === id) return undefined;
      if (failed.has(part.toolCallId) && this.container.effectOf(part.toolName) !== 'read') return { id: part.toolCallId, name: part.toolName, input: part.input };
    }
    return undefined;
  }

  /**
   * The denied calls that come before call `id` in the model's order, decided in the tool
   * message that ends `messages`, and not yet handed to the scheduler for this step: each is
   * a failed write in its place, so `id` and what follows it halt.
   */
  denialsBefore(id: string, messages: ModelMessage[]): DeniedCall[] {
    const decisions = messages.at(-1);
    if (decisions?.role !== 'tool') return [];
    // Most steps have no denial: the conversation is read only when there is one.
    const denials = decisions.content.flatMap((part) => (part.type === 'tool-approval-response' && !part.approved ? [part] : []));
    if (denials.length === 0) return [];
    const order: ToolCall[] = [];
    const callOfApproval = new Map<string, string>();
    for (const message of messages) {
      if (message.role !== 'assistant' || typeof message.content === 'string') continue;
      for (const part of message.content) {
        if (part.type === 'tool-call') order.push({ id: part.toolCallId, name: part.toolName, input: part.input });
        if (part.type === 'tool-approval-request') callOfApproval.set(part.approvalId, part.toolCallId);
      }
    }
    const denied = new Map<string, string | undefined>();
    for (const part of denials) {
      const callId = callOfApproval.get(part.approvalId);
      if (callId !== undefined) denied.set(callId, part.reason);
    }
    const at = order.findIndex((c) => c.id === id);
    let scheduled = this.scheduled.get(messages);
    if (!scheduled) this.scheduled.set(messages, (scheduled = new Set()));
    const before: DeniedCall[] = [];
    for (const call of order.slice(0, Math.max(at, 0))) {
      if (!denied.has(call.id) || scheduled.has(call.id)) continue;
      scheduled.add(call.id);
      const reason = denied.get(call.id);
      before.push({ call, ...(reason ? { reason } : {}) });
    }
    return before;
  }
}
