import { Agent, Runner, run, setTracingDisabled } from '@openai/agents';
import { ToolContainer, defineToolManifest } from '@toolwright/core';
import { toOpenAiAgentsTools } from '@toolwright/openai-agents';
import { DeskTools, Timeline, deskContainer, deskManifest, silentLogger } from '../../core/test/fixtures/desk-tools';
import { ScriptedModel, type ScriptedCall } from './scripted-model';

setTracingDisabled(true);

const ana = { customerId: 'C-ana' };
const ask = 'Cancel A-0001, please.';

function agentWith(model: ScriptedModel, container: ToolContainer<any>, auth: unknown = ana) {
  return new Agent({ name: 'desk', instructions: 'Help the customer.', model, tools: toOpenAiAgentsTools(container, { auth }) });
}

const calls = (...list: Array<[string, string, unknown]>): ScriptedCall[] => list.map(([id, name, input]) => ({ id, name, input }));

/** The container's own answer to the same calls: the text the model must read. */
async function containerAnswers(list: ScriptedCall[], auth: unknown = ana) {
  const results = await deskContainer(new Timeline(), 1).execute(list.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })), { auth: auth as never });
  return results.map((r) => [r.tool_use_id, r.content]);
}

describe('toOpenAiAgentsTools inside the Agents runner', () => {
  test('one turn: the write waits for the read before it, the read after it for the write; results go back in order', async () => {
    const timeline = new Timeline();
    const model = new ScriptedModel([calls(['c1', 'lookup', { numero: 'A-0001' }], ['c2', 'cancel', { numero: 'A-0001' }], ['c3', 'lookup', { numero: 'A-0002' }]), 'Cancelled.']);

    const result = await run(agentWith(model, deskContainer(timeline)), ask);

    expect(result.finalOutput).toBe('Cancelled.');
    expect(timeline.seqOf('write_start', 'c2')).toBeGreaterThan(timeline.seqOf('read_end', 'c1'));
    expect(timeline.seqOf('read_start', 'c3')).toBeGreaterThan(timeline.seqOf('write_end', 'c2'));
    expect(model.resultsSent(1)).toEqual([
      ['c1', JSON.stringify({ numero: 'A-0001', status: 'shipped' })],
      ['c2', JSON.stringify({ numero: 'A-0001', cancelled: true, by: 'C-ana' })],
      ['c3', JSON.stringify({ numero: 'A-0002', status: 'shipped' })],
    ]);
  });

  test("invalid input is refused with the container's text, and the failed write halts the rest of the turn", async () => {
    const timeline = new Timeline();
    const turn = calls(['c1', 'cancel', { numero: '0001', extra: 1 }], ['c2', 'lookup', { numero: 'A-0001' }]);
    const model = new ScriptedModel([turn, 'Sorry.']);

    await run(agentWith(model, deskContainer(timeline)), ask);

    expect(timeline.marks).toEqual([]);
    const sent = model.resultsSent(1);
    expect(sent).toEqual(await containerAnswers(turn));
    expect(sent[0][1]).toMatch(/^Invalid input for cancel:\n/);
    expect(sent[1][1]).toBe('Not executed: an earlier call in this batch (cancel, c1) failed.');
  });

  test("the guard sees the session's identity; a result is cut at the tool's cap", async () => {
    const bruno = { customerId: 'C-bruno' };
    const turn = calls(['c1', 'report', {}], ['c2', 'cancel', { numero: 'A-0001' }]);
    const model = new ScriptedModel([turn, 'Done.']);

    await run(agentWith(model, deskContainer(), bruno), ask);

    const sent = model.resultsSent(1);
    expect(sent).toEqual(await containerAnswers(turn, bruno));
    expect(sent[0][1]).toMatch(/\[truncated: \d+ more characters not shown\]$/);
    expect(sent[1]).toEqual(['c2', 'Not allowed: cancel refused this call.']);
  });

  test('maxFunctionToolConcurrency: 1 (each call its own batch): a failed write halts the later calls of its turn, and the next turn runs', async () => {
    const timeline = new Timeline();
    const model = new ScriptedModel([
      calls(['c1', 'cancel', { numero: 'A-0000' }], ['c2', 'lookup', { numero: 'A-0001' }], ['c3', 'cancel', { numero: 'A-0001' }]),
      calls(['c4', 'lookup', { numero: 'A-0001' }]),
      'Sorry.',
    ]);
    const runner = new Runner({ toolExecution: { maxFunctionToolConcurrency: 1 } });

    await runner.run(agentWith(model, deskContainer(timeline)), ask);

    expect(timeline.started()).toEqual(['c1', 'c4']);
    expect(model.resultsSent(1)).toEqual([
      ['c1', 'order A-0000 has shipped; it cannot be cancelled'],
      ['c2', 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
      ['c3', 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
    ]);
    expect(model.resultsSent(2).at(-1)).toEqual(['c4', JSON.stringify({ numero: 'A-0001', status: 'shipped' })]);
  });

  test('a model that reports no requests in its usage names no turn: the halt holds within each batch of the runner only', async () => {
    const turn = calls(['c1', 'cancel', { numero: 'A-0000' }], ['c2', 'lookup', { numero: 'A-0001' }]);
    const together = new Timeline();
    await run(agentWith(new ScriptedModel([turn, 'Sorry.'], { reportsUsage: false }), deskContainer(together)), ask);
    const oneByOne = new Timeline();
    await new Runner({ toolExecution: { maxFunctionToolConcurrency: 1 } }).run(agentWith(new ScriptedModel([turn, 'Sorry.'], { reportsUsage: false }), deskContainer(oneByOne)), ask);

    expect(together.started()).toEqual(['c1']);
    expect(oneByOne.started()).toEqual(['c1', 'c2']);
  });

  test('approval: the run stops with an interruption, nothing runs until state.approve(), then the call runs', async () => {
    const timeline = new Timeline();
    const model = new ScriptedModel([calls(['c1', 'refund', { numero: 'A-0001' }]), 'Refunded.']);
    const agent = agentWith(model, deskContainer(timeline));

    const first = await run(agent, ask);

    expect(first.interruptions.map((i) => i.rawItem.type === 'function_call' && i.rawItem.callId)).toEqual(['c1']);
    expect(timeline.marks).toEqual([]);
    first.state.approve(first.interruptions[0]);
    const second = await run(agent, first.state);

    expect(second.finalOutput).toBe('Refunded.');
    expect(timeline.started()).toEqual(['c1']);
  });

  test('a call refused by validation is not asked about: it is answered at once', async () => {
    const timeline = new Timeline();
    const model = new ScriptedModel([calls(['c1', 'refund', { numero: 'nope' }]), 'Sorry.']);

    const result = await run(agentWith(model, deskContainer(timeline)), ask);

    expect(result.interruptions).toEqual([]);
    expect(model.resultsSent(1)[0][1]).toMatch(/^Invalid input for refund:\n/);
  });

  test('strict: optional fields are sent required and nullable; a null comes back as absent, before validation', async () => {
    const model = new ScriptedModel([calls(['c1', 'cancel', { numero: 'A-0001', reason: null }]), 'Cancelled.']);
    const tools = toOpenAiAgentsTools(deskContainer(), { auth: ana });
    const cancel = tools.find((t) => t.name === 'cancel')!;

    expect(cancel.strict).toBe(true);
    expect(cancel.parameters.required).toEqual(['numero', 'reason']);
    expect(JSON.stringify(cancel.parameters.properties.reason)).toContain('null');
    await run(new Agent({ name: 'desk', model, tools }), ask);

    expect(model.resultsSent(1)).toEqual([['c1', JSON.stringify({ numero: 'A-0001', cancelled: true, by: 'C-ana' })]]);
  });

  test('strict: a schema the SDK cannot make strict without loss (an anyOf branch with an optional property) is sent non-strict', () => {
    const manifest = defineToolManifest(
      deskManifest.entries.map((e) =>
        e.method !== 'cancel'
          ? e
          : { ...e, definition: { ...e.definition, input_schema: { ...e.definition.input_schema, properties: { ...(e.definition.input_schema.properties as object), reason: { anyOf: [{ type: 'object', properties: { code: { type: 'string' } }, required: [], additionalProperties: false }, { type: 'string' }] } } } } },
      ),
    );
    const container = new ToolContainer({ manifest, providers: [new DeskTools()], logger: silentLogger });

    const cancel = toOpenAiAgentsTools(container).find((t) => t.name === 'cancel')!;

    expect(cancel.strict).toBe(false);
    expect(cancel.parameters).toEqual(container.definitions()[1].input_schema);
  });

  test('streaming: the raw argument deltas reach the app before the calls run, which run in order', async () => {
    const timeline = new Timeline();
    const model = new ScriptedModel([calls(['c1', 'cancel', { numero: 'A-0000' }], ['c2', 'lookup', { numero: 'A-0001' }]), 'Sorry.']);

    const stream = await run(agentWith(model, deskContainer(timeline)), ask, { stream: true });
    const seen: string[] = [];
    for await (const event of stream) {
      if (event.type === 'raw_model_stream_event' && event.data.type === 'model') seen.push(`delta ${(event.data.event as { item_id: string }).item_id}`);
      if (event.type === 'run_item_stream_event' && event.name === 'tool_output') seen.push(`output ${(event.item.rawItem as { callId: string }).callId}`);
    }
    await stream.completed;

    expect(seen).toEqual(['delta c1', 'delta c1', 'delta c2', 'delta c2', 'output c1', 'output c2']);
    expect(timeline.started()).toEqual(['c1']);
    expect(model.resultsSent(1)[1][1]).toBe('Not executed: an earlier call in this batch (cancel, c1) failed.');
  });
});
