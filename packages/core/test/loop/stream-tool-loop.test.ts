import 'reflect-metadata';
import { ToolContainer, ToolLoopError, runToolLoop, streamToolLoop, type ToolLoopEvent, type ToolStreamEvent } from '@toolwright/core';
import { text, toolUse, turn, type ScriptedReply } from '@toolwright/core/testing';
import { ShopTools, Timeline, shopManifest, sleep } from './fixtures/shop-tools';
import { MODEL, closeServers, expectValidTranscript, resultsAt, scripted, summary } from './scripted-client';

afterEach(closeServers);

function shop(wait = sleep(0)) {
  const timeline = new Timeline();
  return { timeline, tools: new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, wait)] }) };
}

async function collect(stream: AsyncIterable<ToolStreamEvent>): Promise<ToolStreamEvent[]> {
  const events: ToolStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const streamed = (reply: ScriptedReply, stream: ScriptedReply['stream']): ScriptedReply => ({ ...reply, stream });

/** Marks the loop's `response` event (the message arrived whole) on the tools' timeline. */
const markResponses = (timeline: Timeline) => (event: ToolLoopEvent) => {
  if (event.type === 'response') timeline.mark('message_complete', String(event.turn));
};

test('text arrives as deltas, tool events in order, done last; the result is the one runToolLoop gives', async () => {
  const script = () => [
    streamed(turn('tool_use', text('Vou consultar o estoque.'), toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })), { chunkChars: 5 }),
    streamed(turn('end_turn', text('Há 3 unidades.')), { chunkChars: 4 }),
  ];
  const { client } = await scripted(script());
  const { client: plainClient } = await scripted(script());

  const stream = streamToolLoop({ client, model: MODEL, prompt: 'Tem X1?', tools: shop().tools });
  const events = await collect(stream);
  const run = await stream.result;
  const plain = await runToolLoop({ client: plainClient, model: MODEL, prompt: 'Tem X1?', tools: shop().tools });

  expect(events.filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text)).toEqual(['Vou c', 'onsul', 'tar o', ' esto', 'que.', 'Há 3', ' uni', 'dade', 's.']);
  expect(events.filter((e) => e.type !== 'text_delta' && e.type !== 'tool_input_delta').map((e) => e.type)).toEqual([
    'turn_start',
    'tool_call',
    'tool_start',
    'tool_end',
    'turn_end',
    'turn_start',
    'turn_end',
    'done',
  ]);
  expect(events.find((e) => e.type === 'tool_input_delta')).toMatchObject({ toolUseId: 'toolu_01', toolName: 'ler_estoque' });
  expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ toolUseId: 'toolu_01', outcome: 'ok', isError: false });
  expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'end_turn', text: 'Há 3 unidades.', turns: 2 });
  expect(run.messages).toEqual(plain.messages);
  expect(run).toMatchObject({ stopReason: plain.stopReason, text: plain.text, turns: plain.turns, usage: plain.usage });
});

test('a read starts while the model is still writing, once the next block starts; its own stop is not enough', async () => {
  const { timeline, tools } = shop();
  const { client } = await scripted([
    streamed(turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), text('Enquanto isso, vejo o preço.'), toolUse('toolu_02', 'ler_preco', { sku: 'X1' })), {
      // A pause after each block's stop: the call must not start during it.
      delayMs: (event) => (event.type === 'content_block_start' && event.index > 0 ? 80 : 0),
    }),
    turn('end_turn', text('Pronto.')),
  ]);

  const stream = streamToolLoop({ client, model: MODEL, prompt: 'X1?', tools, onEvent: markResponses(timeline) });
  const events = await collect(stream);
  await stream.result;

  const starts = events.filter((e) => e.type === 'tool_start');
  expect(starts).toEqual([expect.objectContaining({ toolUseId: 'toolu_01', eager: true }), expect.objectContaining({ toolUseId: 'toolu_02', eager: true })]);
  // toolu_01 started after block 1 began, and before the message ended.
  const firstStart = timeline.find('read_start', 'toolu_01')!;
  expect(firstStart.seq).toBeLessThan(timeline.find('message_complete', '1')!.seq);
  const blockOneText = events.findIndex((e) => e.type === 'text_delta');
  expect(events.findIndex((e) => e.type === 'tool_start')).toBeLessThan(blockOneText + 1);
  expect(events.findIndex((e) => e.type === 'tool_call')).toBeLessThan(events.findIndex((e) => e.type === 'tool_start'));
});

test('eager reads keep to maxConcurrency: five reads streamed against a limit of two', async () => {
  // Every read holds its slot until the message has arrived whole: a read that starts before
  // then and is not one of the first two has jumped the limit, whatever the machine's speed.
  let arrived!: () => void;
  const whole = new Promise<void>((resolve) => (arrived = resolve));
  const { timeline, tools } = shop(() => whole);
  const reads = [1, 2, 3, 4, 5].map((n) => toolUse(`toolu_0${n}`, n % 2 ? 'ler_estoque' : 'ler_preco', { sku: `X${n}` }));
  const { client } = await scripted([
    // Time between blocks for every released read to start, were the limit ignored.
    streamed(turn('tool_use', ...reads, text('Consultei tudo.')), { delayMs: (event) => (event.type === 'content_block_start' ? 15 : 0) }),
    turn('end_turn', text('Pronto.')),
  ]);

  const stream = streamToolLoop({
    client,
    model: MODEL,
    prompt: 'X?',
    tools,
    context: { maxConcurrency: 2 },
    onEvent: (event) => {
      markResponses(timeline)(event);
      if (event.type === 'response') arrived();
    },
  });
  const events = await collect(stream);
  const run = await stream.result;

  const complete = timeline.find('message_complete', '1')!.seq;
  const startedEarly = timeline.marks.filter((m) => m.what === 'read_start' && m.seq < complete).map((m) => m.id);
  // The limit holds back the third read, not the first two: they start while the model writes.
  expect(startedEarly).toEqual(['toolu_01', 'toolu_02']);
  let running = 0;
  for (const mark of timeline.marks) {
    if (mark.what === 'read_start') running++;
    if (mark.what === 'read_end') running--;
    expect(running).toBeLessThanOrEqual(2);
  }
  expect(events.filter((e) => e.type === 'tool_start' && e.eager).map((e) => (e as { toolUseId: string }).toolUseId)).toEqual(['toolu_01', 'toolu_02']);
  expect(resultsAt(run.messages, 2).map((r) => r.is_error ?? false)).toEqual([false, false, false, false, false]);
  expectValidTranscript(run.messages);
});

test('a write waits for the whole message, and a read after it waits for the write', async () => {
  const { timeline, tools } = shop(sleep(20));
  const { client } = await scripted([
    streamed(
      turn(
        'tool_use',
        toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }),
        toolUse('toolu_02', 'reservar', { sku: 'X1' }),
        toolUse('toolu_03', 'ler_preco', { sku: 'X1' }),
        text('Reservei e conferi o preço.'),
      ),
      { delayMs: 30 },
    ),
    turn('end_turn', text('Feito.')),
  ]);

  const stream = streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools, onEvent: markResponses(timeline) });
  const events = await collect(stream);
  const run = await stream.result;

  const complete = timeline.find('message_complete', '1')!.seq;
  expect(timeline.find('read_start', 'toolu_01')!.seq).toBeLessThan(complete);
  expect(timeline.find('write_start', 'toolu_02')!.seq).toBeGreaterThan(complete);
  expect(timeline.find('write_start', 'toolu_02')!.seq).toBeGreaterThan(timeline.find('read_end', 'toolu_01')!.seq);
  expect(timeline.find('read_start', 'toolu_03')!.seq).toBeGreaterThan(timeline.find('write_end', 'toolu_02')!.seq);
  expect(events.filter((e) => e.type === 'tool_start').map((e) => [(e as { toolUseId: string }).toolUseId, (e as { eager: boolean }).eager])).toEqual([
    ['toolu_01', true],
    ['toolu_02', false],
    ['toolu_03', false],
  ]);
  expect(summary(run.messages)[2]).toBe('user: tool_result(toolu_01) | tool_result(toolu_02) | tool_result(toolu_03)');
  expectValidTranscript(run.messages);
});

test('a read after an unknown tool is not started early either', async () => {
  const { tools } = shop();
  const { client } = await scripted([
    streamed(turn('tool_use', toolUse('toolu_01', 'apagar_tudo', {}), toolUse('toolu_02', 'ler_estoque', { sku: 'X1' }), text('...')), { delayMs: 10 }),
    turn('end_turn', text('Ok.')),
  ]);

  const stream = streamToolLoop({ client, model: MODEL, prompt: 'X1?', tools });
  const events = await collect(stream);
  const run = await stream.result;

  expect(events.filter((e) => e.type === 'tool_start')).toEqual([expect.objectContaining({ toolUseId: 'toolu_01', eager: false })]);
  // The unknown tool failed, so the read after it is not executed.
  expect(resultsAt(run.messages, 2).map((r) => r.content)).toEqual([
    expect.stringContaining('Unknown tool "apagar_tudo"'),
    expect.stringContaining('Not executed: an earlier call in this batch (apagar_tudo, toolu_01) failed'),
  ]);
});

describe('a message that ends any other way runs no write, aborts running reads, answers every call', () => {
  const cutTurn = (stream: ScriptedReply['stream'], stopReason: 'tool_use' | 'max_tokens' = 'tool_use') =>
    streamed(
      turn(stopReason, toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'ler_preco', { sku: 'X1' }), toolUse('toolu_03', 'reservar', { sku: 'X1' }), text('e mais')),
      stream,
    );
  // Events: message_start, ping, then 3 per block with an input delta each (start, delta, stop), ...
  const afterThirdBlockStop = 2 + 3 * 3 + 1;

  test('max_tokens: the finished read keeps its result, the write is answered as cut off', async () => {
    const { timeline, tools } = shop(sleep(5));
    const { client } = await scripted([cutTurn({ delayMs: (e) => (e.type === 'message_delta' ? 60 : 0) }, 'max_tokens')]);

    const stream = streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools });
    const events = await collect(stream);
    const run = await stream.result;

    expect(run.stopReason).toBe('max_tokens');
    expect(timeline.find('write_start')).toBeUndefined();
    const results = resultsAt(run.messages, 2);
    expect(results.map((r) => r.tool_use_id)).toEqual(['toolu_01', 'toolu_02', 'toolu_03']);
    expect(results[0].is_error).toBeUndefined();
    expect(results[2]).toMatchObject({ is_error: true, content: expect.stringContaining('cut off') });
    expect(events.filter((e) => e.type === 'tool_end')).toHaveLength(3);
    expectValidTranscript(run.messages);
  });

  test('a mid-stream error: ToolLoopError with a valid conversation, the running read aborted', async () => {
    const { timeline, tools } = shop(sleep(5_000));
    const { server, client } = await scripted([cutTurn({ errorAt: afterThirdBlockStop, delayMs: (_e, i) => (i === afterThirdBlockStop ? 50 : 0) })]);

    const stream = streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools });
    const events = await collect(stream);
    const error = await stream.result.catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ToolLoopError);
    expect((error as Error).message).toMatch(/streamToolLoop: response 1 was interrupted: .*Overloaded/);
    const { messages } = error as ToolLoopError;
    expect(summary(messages)).toEqual([
      'user: text',
      'assistant: tool_use(toolu_01) | tool_use(toolu_02) | tool_use(toolu_03)',
      'user: tool_result(toolu_01, is_error) | tool_result(toolu_02, is_error) | tool_result(toolu_03, is_error)',
    ]);
    expect(resultsAt(messages, 2).map((r) => r.content)).toEqual(['Cancelled.', 'Cancelled.', expect.stringContaining('interrupted')]);
    expect(timeline.find('read_aborted', 'toolu_01')).toBeDefined();
    expect(timeline.find('write_start')).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'error' });
    expectValidTranscript(messages);
    expect(server.requests.map((r) => r.status)).toEqual([200]);
  });

  test('a dropped connection: the same, and the conversation can be sent again', async () => {
    const { timeline, tools } = shop(sleep(1));
    const { client } = await scripted([cutTurn({ dropAt: afterThirdBlockStop, delayMs: (_e, i) => (i === afterThirdBlockStop ? 50 : 0) }), turn('end_turn', text('Retomei.'))]);

    const error = (await streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools }).result.catch((e: unknown) => e)) as ToolLoopError;

    expect(error).toBeInstanceOf(ToolLoopError);
    expect(timeline.find('write_start')).toBeUndefined();
    expect(resultsAt(error.messages, 2).map((r) => r.is_error ?? false)).toEqual([false, false, true]);
    const resumed = await runToolLoop({ client, model: MODEL, messages: error.messages, tools });
    expect(resumed).toMatchObject({ stopReason: 'end_turn', text: 'Retomei.' });
  });

  test('abort(): the run resolves as aborted, running reads cancelled, nothing unanswered', async () => {
    const { timeline, tools } = shop(sleep(5_000));
    const { client } = await scripted([cutTurn({ delayMs: (_e, i) => (i === afterThirdBlockStop ? 5_000 : 0) })]);

    const stream = streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools });
    for await (const event of stream) {
      if (event.type === 'tool_start' && event.toolUseId === 'toolu_02') stream.abort();
    }
    const run = await stream.result;

    expect(run.stopReason).toBe('aborted');
    expect(timeline.find('write_start')).toBeUndefined();
    expect(resultsAt(run.messages, 2).map((r) => r.content)).toEqual(['Cancelled.', 'Cancelled.', 'Not executed: the run was aborted.']);
    expectValidTranscript(run.messages);
  });

  // The bytes of the whole message have arrived when the reader aborts: Node's fetch then leaves
  // the SDK's next read pending forever (nodejs/node#56917); the run must end all the same.
  test('abort() once the whole message has arrived: the run still resolves as aborted', async () => {
    const { timeline, tools } = shop();
    // The block's stop, message_delta, message_stop and the end of the body leave the server together.
    const lastWrite = { chunkChars: 4, delayMs: (e: { type: string }) => (e.type === 'content_block_stop' ? 30 : 0) };
    const { client } = await scripted([streamed(turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' })), lastWrite)]);

    const stream = streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools });
    for await (const event of stream) {
      if (event.type === 'tool_call') stream.abort();
    }
    const run = await stream.result;

    expect(run.stopReason).toBe('aborted');
    expect(timeline.find('write_start')).toBeUndefined();
    expect(resultsAt(run.messages, 2).map((r) => r.content)).toEqual(['Not executed: the run was aborted.']);
    expectValidTranscript(run.messages);
  });

  test('refusal: calls answered, no write', async () => {
    const { timeline, tools } = shop();
    const { client } = await scripted([streamed(turn('refusal', toolUse('toolu_01', 'reservar', { sku: 'X1' })), {})]);

    const run = await streamToolLoop({ client, model: MODEL, prompt: 'Reserve.', tools }).result;

    expect(run.stopReason).toBe('refusal');
    expect(timeline.find('write_start')).toBeUndefined();
    expect(resultsAt(run.messages, 2)[0]).toMatchObject({ is_error: true, content: 'Not executed: the turn ended with refusal.' });
  });
});

test('a reader that throws or reads slowly does not change what runs', async () => {
  const script = () => [
    streamed(turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'reservar', { sku: 'X1' })), { delayMs: 5 }),
    turn('end_turn', text('Reservado.')),
  ];
  const baseline = await streamToolLoop({ client: (await scripted(script())).client, model: MODEL, prompt: 'X1', tools: shop().tools }).result;

  const slow = streamToolLoop({ client: (await scripted(script())).client, model: MODEL, prompt: 'X1', tools: shop().tools });
  let settled = false;
  void slow.result.then(() => (settled = true));
  let readWhileSettled = 0;
  for await (const _event of slow) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (settled) readWhileSettled++;
  }

  const throwing = streamToolLoop({ client: (await scripted(script())).client, model: MODEL, prompt: 'X1', tools: shop().tools });
  await expect(
    (async () => {
      for await (const event of throwing) if (event.type === 'tool_call') throw new Error('a UI bug');
    })(),
  ).rejects.toThrow('a UI bug');

  expect((await slow.result).messages).toEqual(baseline.messages);
  expect((await throwing.result).messages).toEqual(baseline.messages);
  expect(readWhileSettled).toBeGreaterThan(0);
});

test('thinking arrives as thinking_delta and is stored whole, with its signature, as the API needs it back', async () => {
  const thinking = { type: 'thinking' as const, thinking: 'O cliente quer saber do estoque.', signature: 'sig_scripted' };
  const { server, client } = await scripted([
    streamed(turn('tool_use', thinking, toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })), { chunkChars: 10 }),
    turn('end_turn', text('Há 3.')),
  ]);

  const stream = streamToolLoop({ client, model: MODEL, prompt: 'X1?', tools: shop().tools });
  const events = await collect(stream);
  const run = await stream.result;

  expect(events.filter((e) => e.type === 'thinking_delta').map((e) => (e as { thinking: string }).thinking).join('')).toBe(thinking.thinking);
  expect(run.messages[1].content).toEqual([thinking, expect.objectContaining({ type: 'tool_use', id: 'toolu_01' })]);
  expect(server.requests[1].body.messages[1]).toEqual(run.messages[1]);
});
