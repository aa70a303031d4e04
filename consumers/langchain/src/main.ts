import 'reflect-metadata';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { Command, MemorySaver } from '@langchain/langgraph';
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
  constructor(private readonly turns: AIMessage[]) {
    super({});
  }
  _llmType() {
    return 'scripted';
  }
  override bindTools() {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.prompts.push(messages);
    return { generations: [{ text: '', message: this.turns[this.prompts.length - 1] }] };
  }
}

async function main() {
  const model = new ScriptedChatModel(turns);
  const tools = new ToolContainer({ manifest: toolManifest, providers: [new OrdersTools()] });
  const agent = createReactAgent({ llm: model, tools: toLangChainTools(tools) });
  const state = await agent.invoke({ messages: [new HumanMessage('Cancel order 1001, or tell me where it is.')] });
  const sent = (turn: number) => model.prompts[turn].flatMap((m) => (m.getType() === 'tool' ? [String(m.content)] : []));
  checkResults(sent(1), sent(2).slice(2));
  check(state.messages.at(-1)?.content === 'A-1001 is on its way.', 'final message');

  // Approval through LangGraph's interrupt (the optional peer, loaded by the packed adapter): the write asks, the person says no.
  const asking = new ScriptedChatModel([new AIMessage({ content: '', tool_calls: [call('c4', 'orders_cancel', { numero: 'A-1001' })] }), new AIMessage('Not cancelled.')]);
  const approving = new ToolContainer({ manifest: toolManifest, providers: [new OrdersTools()], approval: 'writes' });
  const graph = createReactAgent({ llm: asking, tools: toLangChainTools(approving), checkpointSaver: new MemorySaver() });
  const thread = { configurable: { thread_id: 'smoke' } };
  await graph.invoke({ messages: [new HumanMessage('Cancel order A-1001.')] }, thread);
  const asked = (await graph.getState(thread)).tasks.flatMap((t) => t.interrupts.map((i) => i.value as { toolUseId: string; toolName: string }));
  check(asked.length === 1 && asked[0].toolUseId === 'c4' && asked[0].toolName === 'orders_cancel', `interrupt ${JSON.stringify(asked)}`);
  await graph.invoke(new Command({ resume: { approve: false, reason: 'kept' } }), thread);
  const denied = asking.prompts[1].flatMap((m) => (m.getType() === 'tool' ? [String(m.content)] : []));
  check(denied.length === 1 && denied[0] === 'Denied by the user: kept', `denial ${JSON.stringify(denied)}`);
  console.log(`langchain smoke: ok on Node ${process.version}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
