import 'reflect-metadata';
import { Agent, Usage, run, setTracingDisabled, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { ToolContainer } from '@toolwright/core';
import { toOpenAiAgentsTools } from '@toolwright/openai-agents';
import { check, checkResults } from './check.js';
import { OrdersTools } from './orders.tools.js';
import { toolManifest } from './tools.generated.js';

// The orders tools inside the Agents SDK's own runner, against a scripted model.
setTracingDisabled(true);
const call = (callId: string, name: string, input: unknown) => ({ type: 'function_call' as const, callId, name, arguments: JSON.stringify(input), status: 'completed' as const });
const turns: ModelResponse['output'][] = [
  [call('c1', 'orders_cancel', { numero: '1001' }), call('c2', 'orders_get_status', { numero: 'A-1001' })],
  [call('c3', 'orders_get_status', { numero: 'A-1001' })],
  [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'A-1001 is on its way.' }] }],
];
const requests: ModelRequest[] = [];
const model: Model = {
  async getResponse(request) {
    requests.push(request);
    return { usage: new Usage(), output: turns[requests.length - 1] };
  },
  getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('not streamed');
  },
};

async function main() {
  const tools = new ToolContainer({ manifest: toolManifest, providers: [new OrdersTools()] });
  const agent = new Agent({ name: 'orders', instructions: 'Help with orders.', model, tools: toOpenAiAgentsTools(tools) });
  const result = await run(agent, 'Cancel order 1001, or tell me where it is.');
  const sent = (turn: number) => {
    const input = requests[turn].input;
    return typeof input === 'string' ? [] : input.flatMap((item) => (item.type === 'function_call_result' ? [typeof item.output === 'string' ? item.output : (item.output as { text: string }).text] : []));
  };
  checkResults(sent(1), sent(2).slice(2));
  check(result.finalOutput === 'A-1001 is on its way.', `final output ${JSON.stringify(result.finalOutput)}`);
  console.log(`openai-agents smoke: ok on Node ${process.version}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
