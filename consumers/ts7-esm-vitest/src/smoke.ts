import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { runToolLoop, ToolContainer, type ToolLoopResult } from '@toolwright/core';
import { checkTranscript, startScriptedServer, text, toolUse, turn } from '@toolwright/core/testing';
import { OrdersTools } from './orders.tools.js';
import { toolManifest } from './tools.generated.js';

/**
 * One conversation through the real SDK against the scripted server: an invalid order number
 * refused with a message naming the field, the corrected call answered, then the final text.
 */
export async function smoke(): Promise<ToolLoopResult> {
  const server = await startScriptedServer({
    turns: [
      turn('tool_use', toolUse('toolu_01', 'orders_get_status', { numero: '1001' })),
      turn('tool_use', toolUse('toolu_02', 'orders_get_status', { numero: 'A-1001' })),
      (request) => turn('end_turn', text(`A-1001 is on its way (${request.body.messages.length} messages).`)),
    ],
  });
  try {
    const tools = new ToolContainer({ manifest: toolManifest, providers: [new OrdersTools()] });
    const run = await runToolLoop({
      client: new Anthropic({ baseURL: server.url, apiKey: 'test' }),
      model: 'claude-haiku-4-5',
      prompt: 'Where is order A-1001?',
      tools,
    });
    const results = run.messages.flatMap((m) =>
      typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_result' ? [b] : [])),
    );
    check(run.stopReason === 'end_turn', `stopReason ${run.stopReason}`);
    check(run.text === 'A-1001 is on its way (5 messages).', `text ${JSON.stringify(run.text)}`);
    check(results.length === 2 && results[0].is_error === true && JSON.stringify(results[0].content).includes('numero'), `first result ${JSON.stringify(results[0])}`);
    check(results[1].is_error !== true && JSON.stringify(results[1].content).includes('shipped'), `second result ${JSON.stringify(results[1])}`);
    check(checkTranscript(run.messages).length === 0, 'transcript breaks the protocol rules');
    check(server.requests.length === 3, `${server.requests.length} requests`);
    return run;
  } finally {
    await server.close();
  }
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`smoke: unexpected ${what}`);
}
