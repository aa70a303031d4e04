import 'reflect-metadata';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ToolContainer } from '@toolwright/core';
import { toLangChainTools } from '@toolwright/langchain';
import { check, checkResults } from './check.js';
import { OrdersTools } from './orders.tools.js';
import { toolManifest } from './tools.generated.js';

// The orders tools inside a LangGraph ReAct agent (its ToolNode), against a scripted chat model.
const call = (id: string, name: string, args: Record<string, unknown>) => ({ type: 'tool_call' as const, id, name, args });
const turns = [
  new AIMessage({ content: '', tool_calls: [call('c1', 'orders_cancel', { numero: '1001' }), call('c2', 'orders_get_status', { numero: 'A-1001' })] }),
  new AIMessage({ content: '', tool_calls: [call('c3', 'orders_get_status', { numero: 'A-1001' })] }),
  new AIMessage('A-1001 is on its way.'),
];

class ScriptedChatModel extends BaseChatModel {
  readonly prompts: BaseMessage[][] = [];
  _llmType() {
    return 'scripted';
  }
  override bindTools() {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.prompts.push(messages);
    return { generations: [{ text: '', message: turns[this.prompts.length - 1] }] };
  }
}

async function main() {
  const model = new ScriptedChatModel({});
  const tools = new ToolContainer({ manifest: toolManifest, providers: [new OrdersTools()] });
  const agent = createReactAgent({ llm: model, tools: toLangChainTools(tools) });
  const state = await agent.invoke({ messages: [new HumanMessage('Cancel order 1001, or tell me where it is.')] });
  const sent = (turn: number) => model.prompts[turn].flatMap((m) => (m.getType() === 'tool' ? [String(m.content)] : []));
  checkResults(sent(1), sent(2).slice(2));
  check(state.messages.at(-1)?.content === 'A-1001 is on its way.', 'final message');
  console.log(`langchain smoke: ok on Node ${process.version}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
