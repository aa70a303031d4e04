import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { startScriptedServer, text, toolUse, turn, type ScriptedRequest, type ScriptedServer } from '@toolwright/core/testing';

/**
 * A stand-in for Claude when there is no ANTHROPIC_API_KEY: a server on 127.0.0.1 that speaks the
 * Messages API. It calls orders_cancel when the question says "cancel", else orders_get_status,
 * with the order number it finds, then repeats what the tool answered. Everything else is real:
 * the SDK, the HTTP requests, the loop, validation, approval, your tools.
 */
export function startScriptedModel(requests = 1_000): Promise<ScriptedServer> {
  return startScriptedServer({ turns: Array.from({ length: requests }, () => reply) });
}

function reply(request: ScriptedRequest) {
  const last = request.body.messages.at(-1);
  const blocks = typeof last?.content === 'string' ? [] : (last?.content ?? []);
  const results = blocks.filter((block): block is ToolResultBlockParam => block.type === 'tool_result');
  if (results.length === 0) {
    const question = JSON.stringify(last?.content ?? '');
    const numero = /A-\d{4}/.exec(question)?.[0] ?? 'A-1001';
    const tool = /cancel/i.test(question) ? 'orders_cancel' : 'orders_get_status';
    return turn('tool_use', text(`Let me see to ${numero}.`), toolUse(`toolu_scripted_${request.index}`, tool, { numero }));
  }
  const answer = results.map((result) => (typeof result.content === 'string' ? result.content : JSON.stringify(result.content))).join(' ');
  return turn('end_turn', text(`(scripted model) The tool answered: ${answer}`));
}
