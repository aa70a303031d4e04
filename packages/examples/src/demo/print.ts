import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { checkTranscript, type ToolLoopEvent } from '@toolwright/core';

type CallEvent = Extract<ToolLoopEvent, { type: 'call_start' | 'call_end' | 'call_skipped' }>;

/** The calls the model made, as the lesson printed them: `volta 1: modelo pediu ... com {...}`. */
export function printCalls(messages: readonly MessageParam[]): void {
  let turn = 0;
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    turn += 1;
    for (const block of message.content) {
      if (block.type === 'tool_use') console.log(`  volta ${turn}: modelo pediu ${block.name} com ${JSON.stringify(block.input)}`);
    }
  }
}

const MS_PER_CHAR = 4;

/** One bar per call, on a shared clock: reads of a batch overlap, a write stands alone. */
export function printTimeline(events: readonly ToolLoopEvent[]): void {
  const calls = events.filter((e): e is CallEvent => e.type.startsWith('call_'));
  const ends = calls.filter((e) => e.type === 'call_end');
  if (ends.length === 0) return;
  const origin = Math.min(...calls.filter((e) => e.type === 'call_start').map((e) => e.at));
  console.log(`  timeline (1 char = ${MS_PER_CHAR} ms):`);
  for (const event of calls) {
    const label = `${event.tool} ${event.toolUseId}`.padEnd(30);
    if (event.type === 'call_end') {
      const start = Math.round((event.at - event.durationMs - origin) / MS_PER_CHAR);
      const width = Math.max(1, Math.round(event.durationMs / MS_PER_CHAR));
      console.log(`    ${label} ${' '.repeat(start)}${'█'.repeat(width)} ${event.effect}, ${event.durationMs} ms, ${event.outcome}`);
    } else if (event.type === 'call_skipped') {
      console.log(`    ${label} (not run: ${event.reason})`);
    }
  }
}

/** The transcript in the lesson's style: `assistant: text | tool_use(id)`, `user: tool_result(id, is_error) -> ...`. */
export function printTranscript(messages: readonly MessageParam[]): void {
  for (const message of messages) {
    if (typeof message.content === 'string') {
      console.log(`  ${message.role}: texto`);
      continue;
    }
    const parts = message.content.map((block) => {
      if (block.type === 'tool_use') return `tool_use(${block.id})`;
      if (block.type === 'tool_result') return describeResult(block);
      return block.type;
    });
    console.log(`  ${message.role}: ${parts.join(' | ')}`);
  }
}

function describeResult(block: ToolResultBlockParam): string {
  const content = typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
  const mark = block.is_error ? ', is_error' : '';
  return `tool_result(${block.tool_use_id}${mark}) -> ${content.replace(/\s+/g, ' ').slice(0, 60)}`;
}

/** The transcript, then every protocol rule it breaks; `true` when it breaks none. */
export function reportTranscript(messages: readonly MessageParam[]): boolean {
  printTranscript(messages);
  const violations = checkTranscript(messages);
  for (const v of violations) console.log(`  PROTOCOL VIOLATION at messages.${v.messageIndex}: ${v.message}`);
  return violations.length === 0;
}
