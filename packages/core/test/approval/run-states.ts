import { randomUUID } from 'node:crypto';
import { createRunState, type PendingCall, type RunState } from '@toolwright/core';

/** A paused run: the model asked for `ids` (refunds) and every one waits for a decision; started by `owner` if given. */
export function pausedRun(ids: readonly string[] = ['toolu_a', 'toolu_b'], runId = `run_${randomUUID()}`, owner?: string): RunState {
  const pending: PendingCall[] = ids.map((id, i) => ({
    toolUseId: id,
    toolName: 'orders_refund',
    input: { orderId: `A-${1000 + i}`, amountCents: 2500 + i, note: 'dégât — ✓', items: [{ sku: 'X', qty: 2 }] },
    effect: 'write',
  }));
  return createRunState({
    runId,
    ...(owner !== undefined && { owner }),
    messages: [
      { role: 'user', content: 'Refund my damaged orders.' },
      { role: 'assistant', content: pending.map((call) => ({ type: 'tool_use', id: call.toolUseId, name: call.toolName, input: call.input })) },
    ],
    pending,
    used: {
      turns: 1,
      usage: { inputTokens: 120, outputTokens: 40, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      elapsedMs: 850,
    },
  });
}
