import { generateText, isStepCount, streamText, type ModelMessage } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import { ToolContainer, defineToolManifest } from '@toolwright/core';
import { isOpenAiStrictSchema, toAiSdkTools } from '@toolwright/ai-sdk';
import { DeskTools, Timeline, deskContainer, deskManifest, silentLogger } from '../../core/test/fixtures/desk-tools';
import { generatingModel, streamingModel } from './scripted-model';

const ana = { customerId: 'C-ana' };
const ask = 'Cancel A-0001, please.';

/** What the model was sent back for each tool call in the step after `step`: id, output type, text. */
function resultsSent(model: MockLanguageModelV4, call: number) {
  const prompt = model.doGenerateCalls[call]?.prompt ?? model.doStreamCalls[call]!.prompt;
  return prompt.flatMap((m) =>
    m.role === 'tool' ? m.content.flatMap((p) => (p.type === 'tool-result' ? [[p.toolCallId, p.output.type, 'value' in p.output ? p.output.value : undefined]] : [])) : [],
  );
}

/** The container's own answer to the same calls, for comparison: the text the model must read. */
async function containerAnswers(calls: Array<[string, string, unknown]>, auth = ana) {
  const results = await deskContainer(new Timeline(), 1).execute(
    calls.map(([id, name, input]) => ({ type: 'tool_use', id, name, input })),
    { auth },
  );
  return results.map((r) => [r.tool_use_id, r.is_error ? 'error-text' : 'text', r.content]);
}

/**
 * One step through `generateText` that pauses for approval, resumed with a person's answers
 * (`approved` per call id, true when not named): what had happened at the pause, and after.
 */
async function pauseAndResume(calls: Array<{ id: string; name: string; input: unknown }>, text: string, approved: Record<string, boolean> = {}, reason?: string) {
  const timeline = new Timeline();
  const tools = toAiSdkTools(deskContainer(timeline), { auth: ana });
  const model = generatingModel(calls, text);
  const first = await generateText({ model, prompt: ask, tools, stopWhen: isStepCount(3) });
  const requests = first.content.filter((p) => p.type === 'tool-approval-request');
  const paused = { requested: requests.map((r) => r.toolCall.toolCallId), started: timeline.started() };
  const answers = requests.map((r) => ({ type: 'tool-approval-response' as const, approvalId: r.approvalId, approved: approved[r.toolCall.toolCallId] ?? true, ...(reason ? { reason } : {}) }));
  const messages: ModelMessage[] = [{ role: 'user', content: ask }, ...first.response.messages, { role: 'tool', content: answers }];
  const second = await generateText({ model, messages, tools, stopWhen: isStepCount(3) });
  return { timeline, model, paused, second };
}

describe('toAiSdkTools inside generateText', () => {
  test('one step: the write waits for the read before it, the read after it for the write; results go back in order', async () => {
    const timeline = new Timeline();
    const model = generatingModel(
      [
        { id: 'c1', name: 'lookup', input: { numero: 'A-0001' } },
        { id: 'c2', name: 'cancel', input: { numero: 'A-0001' } },
        { id: 'c3', name: 'lookup', input: { numero: 'A-0002' } },
      ],
      'Cancelled.',
    );

    const result = await generateText({ model, prompt: ask, tools: toAiSdkTools(deskContainer(timeline), { auth: ana }), stopWhen: isStepCount(3) });

    expect(result.text).toBe('Cancelled.');
    expect(timeline.seqOf('write_start', 'c2')).toBeGreaterThan(timeline.seqOf('read_end', 'c1'));
    expect(timeline.seqOf('read_start', 'c3')).toBeGreaterThan(timeline.seqOf('write_end', 'c2'));
    expect(resultsSent(model, 1)).toEqual([
      ['c1', 'text', JSON.stringify({ numero: 'A-0001', status: 'shipped' })],
      ['c2', 'text', JSON.stringify({ numero: 'A-0001', cancelled: true, by: 'C-ana' })],
      ['c3', 'text', JSON.stringify({ numero: 'A-0002', status: 'shipped' })],
    ]);
  });

  test("invalid input is refused with the container's text, and the failed write halts the rest of the step", async () => {
    const timeline = new Timeline();
    const calls: Array<[string, string, unknown]> = [
      ['c1', 'cancel', { numero: '0001', extra: 1 }],
      ['c2', 'lookup', { numero: 'A-0001' }],
    ];
    const model = generatingModel(calls.map(([id, name, input]) => ({ id, name, input })), 'Sorry.');

    await generateText({ model, prompt: ask, tools: toAiSdkTools(deskContainer(timeline), { auth: ana }), stopWhen: isStepCount(3) });

    expect(timeline.marks).toEqual([]);
    const sent = resultsSent(model, 1);
    expect(sent).toEqual(await containerAnswers(calls));
    expect(sent[0][2]).toMatch(/^Invalid input for cancel:\n/);
    expect(sent[1][2]).toBe('Not executed: an earlier call in this batch (cancel, c1) failed.');
  });

  test("the guard sees the session's identity; a result is cut at the tool's cap", async () => {
    const calls: Array<[string, string, unknown]> = [
      ['c1', 'report', {}],
      ['c2', 'cancel', { numero: 'A-0001' }],
    ];
    const bruno = { customerId: 'C-bruno' };
    const model = generatingModel(calls.map(([id, name, input]) => ({ id, name, input })), 'Done.');

    await generateText({ model, prompt: ask, tools: toAiSdkTools(deskContainer(), { auth: bruno }), stopWhen: isStepCount(3) });

    const sent = resultsSent(model, 1);
    expect(sent).toEqual(await containerAnswers(calls, bruno));
    expect(sent[0][2]).toMatch(/\[truncated: \d+ more characters not shown\]$/);
    expect(sent[1]).toEqual(['c2', 'error-text', 'Not allowed: cancel refused this call.']);
  });

  test('approval: the call and every later call of its step wait for the decision, then run in order', async () => {
    const { timeline, paused, second } = await pauseAndResume(
      [
        { id: 'c1', name: 'lookup', input: { numero: 'A-0001' } },
        { id: 'c2', name: 'refund', input: { numero: 'A-0001' } },
        { id: 'c3', name: 'lookup', input: { numero: 'A-0002' } },
      ],
      'Refunded.',
    );

    expect(paused).toEqual({ requested: ['c2', 'c3'], started: ['c1'] });
    expect(second.text).toBe('Refunded.');
    expect(timeline.started()).toEqual(['c1', 'c2', 'c3']);
    expect(timeline.seqOf('read_start', 'c3')).toBeGreaterThan(timeline.seqOf('write_end', 'c2'));
  });

  test('a denied call halts the later calls of its step as a failed write does (as in resumeToolLoop); the approved calls before it run', async () => {
    const { timeline, model } = await pauseAndResume(
      [
        { id: 'c1', name: 'refund', input: { numero: 'A-0001' } },
        { id: 'c2', name: 'refund', input: { numero: 'A-0002' } },
        { id: 'c3', name: 'lookup', input: { numero: 'A-0003' } },
      ],
      'Partly refunded.',
      { c2: false },
      'over the limit',
    );

    expect(timeline.started()).toEqual(['c1']);
    expect(resultsSent(model, 1)).toEqual([
      ['c1', 'text', JSON.stringify({ numero: 'A-0001', refunded: true })],
      ['c3', 'error-text', 'Not executed: an earlier call in this batch (refund, c2) failed.'],
      ['c2', 'execution-denied', undefined],
    ]);
  });

  test('a write that failed before the step paused for approval still halts the approved calls after it, on resume', async () => {
    const { timeline, model, paused } = await pauseAndResume(
      [
        { id: 'c1', name: 'cancel', input: { numero: 'A-0000' } },
        { id: 'c2', name: 'refund', input: { numero: 'A-0001' } },
        { id: 'c3', name: 'lookup', input: { numero: 'A-0002' } },
      ],
      'Nothing refunded.',
    );

    expect(paused).toEqual({ requested: ['c2', 'c3'], started: ['c1'] });
    expect(timeline.started()).toEqual(['c1']);
    expect(resultsSent(model, 1)).toEqual([
      ['c1', 'error-text', 'order A-0000 has shipped; it cannot be cancelled'],
      ['c2', 'error-text', 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
      ['c3', 'error-text', 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
    ]);
  });

  test('with toolCallConcurrency: 1 each call starts on its own, and a failed write still halts the later calls of its step', async () => {
    const timeline = new Timeline();
    const model = generatingModel(
      [
        { id: 'c1', name: 'cancel', input: { numero: 'A-0000' } },
        { id: 'c2', name: 'lookup', input: { numero: 'A-0001' } },
      ],
      'Sorry.',
    );

    await generateText({ model, prompt: ask, tools: toAiSdkTools(deskContainer(timeline), { auth: ana }), toolCallConcurrency: 1, stopWhen: isStepCount(3) });

    expect(timeline.started()).toEqual(['c1']);
    expect(resultsSent(model, 1)).toEqual([
      ['c1', 'error-text', 'order A-0000 has shipped; it cannot be cancelled'],
      ['c2', 'error-text', 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
    ]);
  });

  test('strict: only a strict tool whose schema OpenAI takes as it is (no optional property) is sent strict', async () => {
    const strictManifest = defineToolManifest(deskManifest.entries.map((e) => ({ ...e, definition: { ...e.definition, strict: true } })));
    const container = new ToolContainer({ manifest: strictManifest, providers: [new DeskTools()], logger: silentLogger });
    const model = generatingModel('Hello.');

    await generateText({ model, prompt: 'Hi', tools: toAiSdkTools(container) });

    const sent = Object.fromEntries(model.doGenerateCalls[0].tools!.map((t) => [t.name, t.type === 'function' ? t.strict : undefined]));
    expect(sent).toEqual({ lookup: true, cancel: undefined, refund: true, report: true });
    const schemas = Object.fromEntries(model.doGenerateCalls[0].tools!.map((t) => [t.name, t.type === 'function' ? t.inputSchema : undefined]));
    expect(schemas.cancel).toEqual(container.definitions()[1].input_schema);
    expect(isOpenAiStrictSchema(schemas.cancel)).toBe(false);
  });
});

describe('toAiSdkTools inside streamText', () => {
  test('the partial input streams to the app; a failed write halts the rest of the step', async () => {
    const timeline = new Timeline();
    const model = streamingModel(
      20,
      [
        { id: 'c1', name: 'cancel', input: { numero: 'A-0000' } },
        { id: 'c2', name: 'lookup', input: { numero: 'A-0001' } },
      ],
      'Sorry.',
    );

    const result = streamText({ model, prompt: ask, tools: toAiSdkTools(deskContainer(timeline, 5), { auth: ana }), stopWhen: isStepCount(3) });
    const deltas: string[] = [];
    const outcomes: Array<[string, string]> = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-input-delta') deltas.push(part.id);
      if (part.type === 'tool-result') outcomes.push([part.toolCallId, 'result']);
      if (part.type === 'tool-error') outcomes.push([part.toolCallId, String((part.error as Error).message)]);
    }

    expect(deltas).toEqual(['c1', 'c1', 'c2', 'c2']);
    expect(timeline.started()).toEqual(['c1']);
    expect(outcomes).toEqual([
      ['c1', 'order A-0000 has shipped; it cannot be cancelled'],
      ['c2', 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
    ]);
  });
});

describe('toAiSdkTools approval inside streamText', () => {
  test('a denied call halts the later calls of its step; the AI SDK answers the denied call itself', async () => {
    const timeline = new Timeline();
    const tools = toAiSdkTools(deskContainer(timeline, 5), { auth: ana });
    const model = streamingModel(
      5,
      [
        { id: 'c1', name: 'refund', input: { numero: 'A-0001' } },
        { id: 'c2', name: 'cancel', input: { numero: 'A-0001' } },
      ],
      'Not refunded.',
    );

    const first = streamText({ model, prompt: ask, tools, stopWhen: isStepCount(3) });
    const requests = (await first.content).filter((p) => p.type === 'tool-approval-request');
    expect(requests.map((r) => r.toolCall.toolCallId)).toEqual(['c1', 'c2']);
    const messages: ModelMessage[] = [
      { role: 'user', content: ask },
      ...(await first.response).messages,
      { role: 'tool', content: requests.map((r) => ({ type: 'tool-approval-response' as const, approvalId: r.approvalId, approved: r.toolCall.toolCallId === 'c2' })) },
    ];
    const outcomes: Array<[string, string]> = [];
    for await (const part of streamText({ model, messages, tools, stopWhen: isStepCount(3) }).fullStream) {
      if (part.type === 'tool-result') outcomes.push([part.toolCallId, 'result']);
      if (part.type === 'tool-error') outcomes.push([part.toolCallId, String((part.error as Error).message)]);
      if (part.type === 'tool-output-denied') outcomes.push([part.toolCallId, 'denied']);
    }

    expect(timeline.marks).toEqual([]);
    expect(outcomes).toContainEqual(['c2', 'Not executed: an earlier call in this batch (refund, c1) failed.']);
  });
});
