import { HumanMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { toLangChainTools } from '@toolwright/langchain';
import { Timeline, deskContainer } from '../../core/test/fixtures/desk-tools';
import { ScriptedChatModel, type ScriptedCall } from './scripted-chat-model';

const ana = { customerId: 'C-ana' };
const ask = () => ({ messages: [new HumanMessage('Cancel A-0001, please.')] });

const calls = (...list: Array<[string, string, Record<string, unknown>]>): ScriptedCall[] => list.map(([id, name, input]) => ({ id, name, input }));

function agent(model: ScriptedChatModel, timeline = new Timeline(), auth: unknown = ana) {
  return createReactAgent({ llm: model, tools: toLangChainTools(deskContainer(timeline), { auth }) });
}

/** The container's own answer to the same calls: the text the model must read. */
async function containerAnswers(list: ScriptedCall[], auth: unknown = ana) {
  const results = await deskContainer(new Timeline(), 1).execute(list.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })), { auth: auth as never });
  return results.map((r) => [r.tool_use_id, r.is_error ? 'error' : 'success', r.content]);
}

describe('toLangChainTools inside a LangGraph ReAct agent (ToolNode)', () => {
  test('one step: the write waits for the read before it, the read after it for the write; results go back in order', async () => {
    const timeline = new Timeline();
    const model = new ScriptedChatModel([calls(['c1', 'lookup', { numero: 'A-0001' }], ['c2', 'cancel', { numero: 'A-0001' }], ['c3', 'lookup', { numero: 'A-0002' }]), 'Cancelled.']);

    const state = await agent(model, timeline).invoke(ask());

    expect(state.messages.at(-1)!.content).toBe('Cancelled.');
    expect(timeline.seqOf('write_start', 'c2')).toBeGreaterThan(timeline.seqOf('read_end', 'c1'));
    expect(timeline.seqOf('read_start', 'c3')).toBeGreaterThan(timeline.seqOf('write_end', 'c2'));
    expect(model.resultsSent(1)).toEqual([
      ['c1', 'success', JSON.stringify({ numero: 'A-0001', status: 'shipped' })],
      ['c2', 'success', JSON.stringify({ numero: 'A-0001', cancelled: true, by: 'C-ana' })],
      ['c3', 'success', JSON.stringify({ numero: 'A-0002', status: 'shipped' })],
    ]);
  });

  test("invalid input is refused with the container's text (not LangChain's schema error), and the failed write halts the rest of the step", async () => {
    const timeline = new Timeline();
    const turn = calls(['c1', 'cancel', { numero: '0001', extra: 1 }], ['c2', 'lookup', { numero: 'A-0001' }]);
    const model = new ScriptedChatModel([turn, 'Sorry.']);

    await agent(model, timeline).invoke(ask());

    expect(timeline.marks).toEqual([]);
    const sent = model.resultsSent(1);
    expect(sent).toEqual(await containerAnswers(turn));
    expect(sent[0][2]).toMatch(/^Invalid input for cancel:\n/);
    expect(sent[1][2]).toBe('Not executed: an earlier call in this batch (cancel, c1) failed.');
  });

  test("the guard sees the session's identity; a result is cut at the tool's cap", async () => {
    const bruno = { customerId: 'C-bruno' };
    const turn = calls(['c1', 'report', {}], ['c2', 'cancel', { numero: 'A-0001' }]);
    const model = new ScriptedChatModel([turn, 'Done.']);

    await agent(model, new Timeline(), bruno).invoke(ask());

    const sent = model.resultsSent(1);
    expect(sent).toEqual(await containerAnswers(turn, bruno));
    expect(sent[0][2]).toMatch(/\[truncated: \d+ more characters not shown\]$/);
    expect(sent[1]).toEqual(['c2', 'error', 'Not allowed: cancel refused this call.']);
  });

  test("approval without LangGraph's checkpointer: nobody can ask, so the call is refused, says what would ask, and never runs", async () => {
    const timeline = new Timeline();
    const model = new ScriptedChatModel([calls(['c1', 'refund', { numero: 'A-0001' }], ['c2', 'lookup', { numero: 'A-0001' }]), 'I cannot refund.']);

    await agent(model, timeline).invoke(ask());

    expect(timeline.started()).toEqual(['c2']);
    expect(model.resultsSent(1)[0]).toEqual(['c1', 'error', "Not executed: refund needs a person's approval, which only a LangGraph graph with a checkpointer can ask for."]);
    const refund = toLangChainTools(deskContainer(timeline, 1), { auth: ana }).find((t) => t.name === 'refund')!;
    expect(await refund.invoke({ numero: 'A-0001' })).toBe("Not executed: refund needs a person's approval, which only a LangGraph graph with a checkpointer can ask for.");
  });

  test('streaming: the partial arguments reach the app as tool_call_chunks before the calls run', async () => {
    const timeline = new Timeline();
    const model = new ScriptedChatModel([calls(['c1', 'lookup', { numero: 'A-0001' }], ['c2', 'cancel', { numero: 'A-0001' }]), 'Cancelled.']);

    const seen: string[] = [];
    for await (const [message] of await agent(model, timeline).stream(ask(), { streamMode: 'messages' })) {
      const chunks = (message as unknown as { tool_call_chunks?: Array<{ args?: string }> }).tool_call_chunks ?? [];
      for (const chunk of chunks) seen.push(`args ${chunk.args}`);
      if (message.getType() === 'tool') seen.push(`result ${(message as unknown as { tool_call_id: string }).tool_call_id}`);
    }

    expect(seen).toEqual(['args {"numero"', 'args :"A-0001"}', 'args {"numero"', 'args :"A-0001"}', 'result c1', 'result c2']);
    expect(timeline.seqOf('write_start', 'c2')).toBeGreaterThan(timeline.seqOf('read_end', 'c1'));
  });

  test('tool.invoke(args) on its own goes through the container too and answers with its content', async () => {
    const [lookup] = toLangChainTools(deskContainer(new Timeline(), 1), { auth: ana });

    expect(await lookup.invoke({ numero: 'A-0001' })).toBe(JSON.stringify({ numero: 'A-0001', status: 'shipped' }));
    expect(String(await lookup.invoke({ numero: 'nope' }))).toMatch(/^Invalid input for lookup:\n/);
  });
});

describe('approval through LangGraph interrupts (createReactAgent with a MemorySaver)', () => {
  function graph(model: ScriptedChatModel, timeline: Timeline) {
    const thread = { configurable: { thread_id: 'desk-1' } };
    const built = createReactAgent({ llm: model, tools: toLangChainTools(deskContainer(timeline), { auth: ana }), checkpointSaver: new MemorySaver() });
    const interrupts = async () => (await built.getState(thread)).tasks.flatMap((t) => t.interrupts.map((i) => i.value));
    const resume = (answer: unknown) => built.invoke(new Command({ resume: answer }), thread);
    return { start: () => built.invoke(ask(), thread), resume, interrupts };
  }

  test("a call that needs approval interrupts with its name and input; nothing of the step runs before the answer; approved, the step runs in the model's order", async () => {
    const timeline = new Timeline();
    const model = new ScriptedChatModel([calls(['c1', 'lookup', { numero: 'A-0001' }], ['c2', 'refund', { numero: 'A-0001' }], ['c3', 'lookup', { numero: 'A-0002' }]), 'Refunded.']);
    const run = graph(model, timeline);

    await run.start();

    expect(await run.interrupts()).toEqual([{ toolUseId: 'c2', toolName: 'refund', input: { numero: 'A-0001' }, effect: 'write' }]);
    expect(timeline.marks).toEqual([]);

    const state = await run.resume({ approve: true });

    expect(state.messages.at(-1)!.content).toBe('Refunded.');
    expect(timeline.started()).toEqual(['c1', 'c2', 'c3']);
    expect(timeline.seqOf('write_start', 'c2')).toBeGreaterThan(timeline.seqOf('read_end', 'c1'));
    expect(timeline.seqOf('read_start', 'c3')).toBeGreaterThan(timeline.seqOf('write_end', 'c2'));
    expect(model.resultsSent(1)).toEqual([
      ['c1', 'success', JSON.stringify({ numero: 'A-0001', status: 'shipped' })],
      ['c2', 'success', JSON.stringify({ numero: 'A-0001', refunded: true })],
      ['c3', 'success', JSON.stringify({ numero: 'A-0002', status: 'shipped' })],
    ]);
  });

  test('denied, the call is answered "Denied by the user" with the reason, as in runToolLoop, and halts the later calls of its step; the calls before it run', async () => {
    const timeline = new Timeline();
    const model = new ScriptedChatModel([calls(['c1', 'lookup', { numero: 'A-0001' }], ['c2', 'refund', { numero: 'A-0001' }], ['c3', 'cancel', { numero: 'A-0001' }]), 'Not refunded.']);
    const run = graph(model, timeline);

    await run.start();
    await run.resume({ approve: false, reason: 'over the limit' });

    expect(timeline.started()).toEqual(['c1']);
    expect(model.resultsSent(1)).toEqual([
      ['c1', 'success', JSON.stringify({ numero: 'A-0001', status: 'shipped' })],
      ['c2', 'error', 'Denied by the user: over the limit'],
      ['c3', 'error', 'Not executed: an earlier call in this batch (refund, c2) failed.'],
    ]);
  });

  test('two calls that need approval: one interrupt each, in order, and nothing runs until both are answered; a failed write before them still halts them', async () => {
    const timeline = new Timeline();
    const model = new ScriptedChatModel([calls(['c1', 'cancel', { numero: 'A-0000' }], ['c2', 'refund', { numero: 'A-0001' }], ['c3', 'refund', { numero: 'A-0002' }]), 'Sorry.']);
    const run = graph(model, timeline);

    await run.start();
    expect((await run.interrupts()).map((v) => (v as { toolUseId: string }).toolUseId)).toEqual(['c2']);
    await run.resume({ approve: true });
    expect((await run.interrupts()).map((v) => (v as { toolUseId: string }).toolUseId)).toEqual(['c3']);
    expect(timeline.marks).toEqual([]);
    await run.resume({ approve: true });

    expect(timeline.started()).toEqual(['c1']);
    expect(model.resultsSent(1)).toEqual([
      ['c1', 'error', 'order A-0000 has shipped; it cannot be cancelled'],
      ['c2', 'error', 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
      ['c3', 'error', 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
    ]);
  });

  test('resumed with something that is not an answer, the call does not run', async () => {
    const timeline = new Timeline();
    const model = new ScriptedChatModel([calls(['c1', 'refund', { numero: 'A-0001' }]), 'Not refunded.']);
    const run = graph(model, timeline);

    await run.start();
    await run.resume('yes');

    expect(timeline.marks).toEqual([]);
    expect(model.resultsSent(1)).toEqual([['c1', 'error', 'Not executed: the approval answer for refund was not { approve: true } or { approve: false }.']]);
  });
});
