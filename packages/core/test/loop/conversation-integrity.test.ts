import 'reflect-metadata';
import type { Message, MessageParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer, ToolLoopError, runToolLoop, streamToolLoop, type MessagesClient, type ToolLoopOptions, type ToolLoopResult } from '@toolwright/core';
import { scriptedStreamEvents, serverToolUse, text, toolUse, turn } from '@toolwright/core/testing';
import { runClock } from './fixtures/run-clock';
import { ShopTools, Timeline, shopManifest, sleep } from './fixtures/shop-tools';
import { MODEL, closeServers, expectValidTranscript, resultsAt, scripted, summary } from './scripted-client';

// The loop defects of issue 12, for both loops: what a response can hold that must not break
// the conversation, and the wall-clock budget checked before each tool starts.

afterEach(closeServers);

const loops = [
  ['runToolLoop', (options: ToolLoopOptions<unknown>) => runToolLoop(options)],
  ['streamToolLoop', (options: ToolLoopOptions<unknown>) => streamToolLoop(options).result],
] as const;

function shop(wait = sleep(0)) {
  const timeline = new Timeline();
  return { timeline, tools: new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, wait)] }) };
}

const rejection = (promise: Promise<ToolLoopResult>) => promise.then(() => undefined, (error: unknown) => error as ToolLoopError);

/** A client whose responses are given as they are, whatever their shape: what a misbehaving peer sends. */
function rawClient(responses: readonly unknown[], sent: unknown[] = []): MessagesClient {
  let next = 0;
  return {
    messages: {
      create: async (body: { stream?: boolean }) => {
        // What the SDK does with every request: a conversation that cannot be serialized never leaves.
        sent.push(JSON.parse(JSON.stringify(body)));
        const response = responses[next++];
        if (!body.stream) return response;
        return (async function* () {
          for (const event of response as RawMessageStreamEvent[]) yield event;
        })();
      },
    },
  } as unknown as MessagesClient;
}

function message(content: unknown, stopReason: unknown = 'end_turn'): Message {
  const usage = { input_tokens: 5, output_tokens: 5 };
  return { id: 'msg_raw', type: 'message', role: 'assistant', model: MODEL, content, stop_reason: stopReason, stop_sequence: null, usage } as Message;
}

const withoutUsage = (response: Message) => ({ ...response, usage: undefined }) as unknown as Message;

describe.each(loops)('%s', (name, loop) => {
  test('a history that ends with a user message takes the next prompt: merged into that message, turns still alternate (issue 25)', async () => {
    const { tools } = shop();
    const { client } = await scripted([turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })), turn('end_turn')]);
    const first = await loop({ client, model: MODEL, prompt: 'Há X1?', tools });
    // The model ended with no content: no empty assistant message is kept, the history ends with the results.
    expect(first.stopReason).toBe('end_turn');
    expect(first.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);

    const sent: Array<{ messages: MessageParam[] }> = [];
    const history = structuredClone(first.messages);
    const reply = (words: string) => (name === 'streamToolLoop' ? scriptedStreamEvents(message([{ type: 'text', text: words }])) : message([{ type: 'text', text: words }]));
    const next = await loop({ client: rawClient([reply('Sim.')], sent), model: MODEL, messages: history, prompt: 'E agora?', tools, promptCaching: false });
    expect(next.text).toBe('Sim.');
    expect(history).toEqual(first.messages);
    expect(sent[0].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent[0].messages[2].content).toEqual([...(first.messages[2].content as unknown[]), { type: 'text', text: 'E agora?' }]);
    expectValidTranscript(next.messages);

    // A prompt never answered, as a string, joins the next one the same way.
    const again = await loop({ client: rawClient([reply('Ok.')], sent), model: MODEL, messages: [{ role: 'user', content: 'Olá.' }], prompt: 'Há X1?', tools });
    expect(again.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Olá.' }, { type: 'text', text: 'Há X1?' }] });
  });

  test('a paused turn with a client tool_use: the call is answered before the turn is resent, nothing unanswered reaches the API', async () => {
    const { timeline, tools } = shop();
    const { server, client } = await scripted([
      turn('pause_turn', text('Vou pesquisar.'), serverToolUse('srvtoolu_01', 'web_search', { query: 'frete' }), toolUse('toolu_01', 'reservar', { sku: 'X1' })),
      turn('end_turn', text('Pronto.')),
    ]);

    const run = await loop({ client, model: MODEL, prompt: 'Reserve X1.', tools, serverTools: [{ type: 'web_search_20250305', name: 'web_search' }] });

    expect(run).toMatchObject({ stopReason: 'end_turn', text: 'Pronto.' });
    expect(server.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(summary(run.messages)).toEqual([
      'user: text',
      'assistant: text | server_tool_use(srvtoolu_01) | tool_use(toolu_01)',
      'user: tool_result(toolu_01, is_error)',
      'assistant: text',
    ]);
    expect(resultsAt(run.messages, 2)[0].content).toMatch(/^Not executed: the turn was paused/);
    expect(timeline.find('write_start')).toBeUndefined();
    expectValidTranscript(run.messages);
  });

  test.each<[string, unknown]>([
    ['content: null', message(null)],
    ['a null block', message([{ type: 'text', text: 'ok' }, null])],
    ['no usage', withoutUsage(message([{ type: 'text', text: 'ok' }]))],
  ])('a 200 response with %s is a ToolLoopError carrying the conversation', async (_what, response) => {
    const responses = name === 'streamToolLoop' ? [streamOf(response as Message)] : [response];

    const error = await rejection(loop({ client: rawClient(responses), model: MODEL, prompt: 'X1?', tools: shop().tools }));

    expect(error).toBeInstanceOf(ToolLoopError);
    expect(error!.message).toMatch(new RegExp(`^${name}: response 1 is malformed: .+\\. It was not added to the conversation\\.$`));
    expect(error!.messages).toEqual([{ role: 'user', content: 'X1?' }]);
  });

  test('a response that repeats a tool_use id of the history is refused before anything runs', async () => {
    const { timeline, tools } = shop();
    const history: MessageParam[] = [
      { role: 'user', content: 'Reserve X1.' },
      { role: 'assistant', content: [toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"quantidade":3}' }] },
    ];
    const { server, client } = await scripted([turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }))]);

    const error = await rejection(loop({ client, model: MODEL, messages: history, tools }));

    expect(error).toBeInstanceOf(ToolLoopError);
    expect(error!.message).toContain('repeats the tool_use id toolu_01, already used earlier in the conversation');
    expect(timeline.marks).toEqual([]);
    expect(error!.messages).toEqual(history);
    expect(server.requests).toHaveLength(1);
  });

  test('a response that repeats an id of an earlier response of the same run is refused too', async () => {
    const { timeline, tools } = shop();
    const { client } = await scripted([
      turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })),
      turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' })),
    ]);

    const error = await rejection(loop({ client, model: MODEL, prompt: 'Reserve X1.', tools }));

    expect(error!.message).toContain('repeats the tool_use id toolu_01, already used earlier in the conversation');
    expect(timeline.find('write_start')).toBeUndefined();
    expect(summary(error!.messages)).toEqual(['user: text', 'assistant: tool_use(toolu_01)', 'user: tool_result(toolu_01)']);
  });

  test('two calls with one id in a response: nothing runs', async () => {
    const { timeline, tools } = shop();
    const { client } = await scripted([turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_01', 'reservar', { sku: 'X1' }))]);

    const error = await rejection(loop({ client, model: MODEL, prompt: 'Reserve X1.', tools }));

    expect(error!.message).toContain('repeats the tool_use id toolu_01; ids must be unique');
    expect(timeline.find('write_start')).toBeUndefined();
    expectValidTranscript(error!.messages);
  });

  test('a stored history with a repeated id is refused before any request, saying what is wrong with it', async () => {
    const { server, client } = await scripted([]);
    const history: MessageParam[] = [
      { role: 'user', content: 'X1?' },
      { role: 'assistant', content: [toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '3' }] },
      { role: 'assistant', content: [toolUse('toolu_01', 'reservar', { sku: 'X1' })] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'ok' }] },
    ];

    await expect(loop({ client, model: MODEL, messages: history, tools: shop().tools })).rejects.toThrow(
      `${name}: \`messages\` break the protocol, so the API would refuse them (HTTP 400); fix the history before sending it:\n` +
        'messages.3: `tool_use` ids must be unique: toolu_01 is repeated (first in messages.1).',
    );
    expect(server.requests).toHaveLength(0);
  });

  test('a response without content leaves no empty assistant message', async () => {
    const { server, client } = await scripted([turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })), turn('end_turn')]);

    const run = await loop({ client, model: MODEL, prompt: 'X1?', tools: shop().tools });

    expect(run).toMatchObject({ stopReason: 'end_turn', text: '' });
    expect(summary(run.messages)).toEqual(['user: text', 'assistant: tool_use(toolu_01)', 'user: tool_result(toolu_01)']);
    expect(server.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  test('an empty text block of the model is not kept: the API gives them but refuses them back', async () => {
    const replies = [message([text(''), toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })], 'tool_use'), message([text(''), text('Há 3.')])];
    const sent: Array<{ messages: MessageParam[] }> = [];
    const responses = name === 'streamToolLoop' ? replies.map((r) => scriptedStreamEvents(r, { chunkChars: 4 }).filter((e) => e.type !== 'ping')) : replies;

    const run = await loop({ client: rawClient(responses, sent), model: MODEL, prompt: 'X1?', tools: shop().tools });

    expect(summary(run.messages)).toEqual(['user: text', 'assistant: tool_use(toolu_01)', 'user: tool_result(toolu_01)', 'assistant: text']);
    expect(JSON.stringify(sent[1].messages)).not.toContain('"text":""');
    expect(JSON.stringify(run.messages)).not.toContain('"text":""');
  });

  test('stop_reason tool_use with no client call is an error, not a user message with content: []', async () => {
    const { server, client } = await scripted([turn('tool_use', text('Vou pesquisar.'), serverToolUse('srvtoolu_01', 'web_search', { query: 'frete' }))]);

    const error = await rejection(loop({ client, model: MODEL, prompt: 'Frete?', tools: shop().tools, serverTools: [{ type: 'web_search_20250305', name: 'web_search' }] }));

    expect(error!.message).toBe(`${name}: response 1 stopped with tool_use but holds no tool_use block.`);
    expect(error!.messages.every((m) => m.content.length > 0)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  test('stop_reason: null is not reported as end_turn', async () => {
    const { timeline, tools } = shop();
    const response = message([{ type: 'text', text: 'Talvez' }, toolUse('toolu_01', 'reservar', { sku: 'X1' })], null);
    const responses = name === 'streamToolLoop' ? [streamOf(response)] : [response];

    const error = await rejection(loop({ client: rawClient(responses), model: MODEL, prompt: 'X1?', tools }));

    expect(error).toBeInstanceOf(ToolLoopError);
    expect(error!.message).toBe(`${name}: response 1 has no stop_reason, so whether the model finished is unknown.`);
    expect(timeline.find('write_start')).toBeUndefined();
    expect(resultsAt(error!.messages, 2)[0]).toMatchObject({ is_error: true, content: 'Not executed: the response ended without a stop reason.' });
    expectValidTranscript(error!.messages);
  });

  test('a refused input nested 5,000 levels leaves a conversation that can still be serialized and sent', async () => {
    const deep = JSON.parse('{"sku":'.repeat(5_000) + '"X1"' + '}'.repeat(5_000));
    const sent: unknown[] = [];
    const first = message([toolUse('toolu_01', 'ler_estoque', deep)], 'tool_use');
    const second = message([{ type: 'text', text: 'Ok.' }]);
    const responses = name === 'streamToolLoop' ? [deepStream('toolu_01', 5_000), streamOf(second)] : [first, second];

    const run = await loop({ client: rawClient(responses, sent), model: MODEL, prompt: 'X1?', tools: shop().tools });

    expect(run).toMatchObject({ stopReason: 'end_turn', text: 'Ok.' });
    expect(sent).toHaveLength(2);
    expect(run.messages[1].content).toEqual([expect.objectContaining({ type: 'tool_use', id: 'toolu_01', input: {} })]);
    expect(resultsAt(run.messages, 2)[0]).toMatchObject({ is_error: true, content: 'Not executed: the input is nested deeper than 512 levels.' });
    expect(() => JSON.stringify(run.messages)).not.toThrow();
  });

  test('the wall-clock budget is checked before each tool starts, not only before each request', async () => {
    // The read takes two budgets: it moves the engine's clock on as it runs, so however slow this
    // machine is to reach it, the budget is left when the read starts and spent when it ends.
    const clock = runClock();
    try {
      const { timeline, tools } = shop(async () => {
        clock.advance(120_000);
      });
      const response = message([toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'reservar', { sku: 'X1' })], 'tool_use');
      const client = rawClient([name === 'streamToolLoop' ? streamOf(response) : response]);

      const run = await loop({ client, model: MODEL, prompt: 'Reserve X1.', tools, budget: { ms: 60_000 } });

      expect(run.stopReason).toBe('time_budget');
      expect(timeline.find('read_end', 'toolu_01')).toBeDefined();
      expect(timeline.find('write_start')).toBeUndefined();
      expect(resultsAt(run.messages, 2).map((r) => r.content)).toEqual([
        JSON.stringify({ sku: 'X1', quantidade: 3 }),
        'Not executed: the time budget (60000 ms) reached.',
      ]);
      expectValidTranscript(run.messages);
    } finally {
      clock.restore();
    }
  });
});

/** The response as the API would stream it; a null block arrives as a content_block_start of null. */
function streamOf(response: Message): RawMessageStreamEvent[] {
  if (!Array.isArray(response.content) || !response.usage) {
    return [{ type: 'message_start', message: response }, { type: 'message_stop' }] as RawMessageStreamEvent[];
  }
  const blocks = response.content.filter((b) => b !== null);
  const events = scriptedStreamEvents({ ...response, content: blocks }).filter((e): e is RawMessageStreamEvent => e.type !== 'ping');
  if (blocks.length === response.content.length) return events;
  const nullBlock = { type: 'content_block_start', index: blocks.length, content_block: null } as unknown as RawMessageStreamEvent;
  return [...events.slice(0, -2), nullBlock, ...events.slice(-2)];
}

/** A streamed call whose input nests `depth` levels, sent as JSON text the way the API streams it. */
function deepStream(id: string, depth: number): RawMessageStreamEvent[] {
  const json = '{"sku":'.repeat(depth) + '"X1"' + '}'.repeat(depth);
  return [
    { type: 'message_start', message: message([], null) },
    { type: 'content_block_start', index: 0, content_block: toolUse(id, 'ler_estoque', {}) },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ] as RawMessageStreamEvent[];
}

test.each(loops)('%s checks context.maxConcurrency and context.onWriteFailure before the first request', async (name, loop) => {
  const { server, client } = await scripted([]);
  const tools = shop().tools;

  await expect(loop({ client, model: MODEL, prompt: 'X1?', tools, context: { maxConcurrency: 0 } })).rejects.toThrow(
    `${name}: context.maxConcurrency must be a positive integer, got 0.`,
  );
  await expect(loop({ client, model: MODEL, prompt: 'X1?', tools, context: { onWriteFailure: 'skip' as never } })).rejects.toThrow(
    `${name}: context.onWriteFailure must be 'halt' or 'continue', got skip.`,
  );
  expect(server.requests).toHaveLength(0);
});
