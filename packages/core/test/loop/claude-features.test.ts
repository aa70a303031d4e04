import 'reflect-metadata';
import type { MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer, runToolLoop, streamToolLoop, type ToolContainerOptions, type ToolLoopOptions, type ToolLoopResult, type ToolStreamEvent } from '@toolwright/core';
import {
  codeExecution,
  codeExecutionResult,
  fromCode,
  text,
  toolSearch,
  toolSearchResult,
  toolUse,
  turn,
  type ScriptedRequest,
  type ScriptedTurn,
} from '@toolwright/core/testing';
import { FeatureTools, featureManifest } from './fixtures/feature-tools';
import { MODEL, closeServers, expectValidTranscript, resultsAt, scripted } from './scripted-client';

afterEach(closeServers);

type Loop = 'runToolLoop' | 'streamToolLoop';
const LOOPS: Loop[] = ['runToolLoop', 'streamToolLoop'];

function features(options: Partial<ToolContainerOptions> = {}) {
  const provider = new FeatureTools();
  return { provider, tools: new ToolContainer({ manifest: featureManifest, providers: [provider], ...options }) };
}

async function drive(loop: Loop, options: ToolLoopOptions): Promise<{ run: ToolLoopResult; events: ToolStreamEvent[] }> {
  if (loop === 'runToolLoop') return { run: await runToolLoop(options), events: [] };
  const stream = streamToolLoop(options);
  const events: ToolStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return { run: await stream.result, events };
}

/** The `tool_use` blocks of the stored conversation, as `[id, caller type]`. */
function callers(messages: readonly MessageParam[]) {
  return messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_use' ? [[b.id, b.caller?.type]] : []))));
}

function breakpoints(body: ScriptedRequest['body']): string[] {
  const marks: string[] = [];
  (body.tools ?? []).forEach((t, i) => 'cache_control' in t && t.cache_control && marks.push(`tools.${i}`));
  body.messages.forEach((m, i) => {
    if (typeof m.content !== 'string') m.content.forEach((b, j) => 'cache_control' in b && b.cache_control && marks.push(`messages.${i}.${j}`));
  });
  return marks;
}

/** The definitions that need no tool search tool. */
const upFront = featureManifest.entries.map((e) => e.definition).filter((d) => !d.defer_loading);
const nameOf = (tool: ToolUnion) => (tool as { name?: string }).name;
const codeExecutionTool = { type: 'code_execution_20250825', name: 'code_execution' } as ToolUnion;
const CODE = 'for n in await listar_pedidos(cliente="c-1"): print(n, await buscar_pedido(numero=n))';

describe('programmatic tool calling', () => {
  test.each(LOOPS)('%s: calls from code run, keep their caller, and every later request names the container', async (loop) => {
    const { provider, tools } = features({ toolSearch: 'regex' });
    const seen: ScriptedRequest[] = [];
    const record = (reply: ScriptedTurn) => (request: ScriptedRequest) => {
      seen.push(request);
      return typeof reply === 'function' ? reply(request) : reply;
    };
    const { server, client } = await scripted([
      { ...turn('tool_use', text('Vou somar pelo código.'), codeExecution('srvtoolu_c1', CODE), toolUse('toolu_1', 'listar_pedidos', { cliente: 'c-1' }, fromCode('srvtoolu_c1'))), container: { id: 'container_7' } },
      record(turn('tool_use', toolUse('toolu_2', 'buscar_pedido', { numero: 'A-1001' }, fromCode('srvtoolu_c1')), toolUse('toolu_3', 'buscar_pedido', { numero: 'A-1002' }, fromCode('srvtoolu_c1')))),
      record(turn('end_turn', codeExecutionResult('srvtoolu_c1', 'A-1001 enviado\nA-1002 entregue'), text('Um enviado, um entregue.'))),
    ]);

    const { run } = await drive(loop, { client, model: MODEL, prompt: 'Como estão meus pedidos?', tools, serverTools: [codeExecutionTool] });

    expect(run.stopReason).toBe('end_turn');
    expect(run.text).toBe('Um enviado, um entregue.');
    expect(provider.calls).toEqual(['listar_pedidos:c-1', 'buscar_pedido:A-1001', 'buscar_pedido:A-1002']);
    expect(server.requests[0].body.container).toBeUndefined();
    // The second response does not repeat the container: the loop keeps the one it learned.
    expect(seen.map((r) => r.body.container)).toEqual(['container_7', 'container_7']);
    expect(callers(run.messages)).toEqual([
      ['toolu_1', 'code_execution_20250825'],
      ['toolu_2', 'code_execution_20250825'],
      ['toolu_3', 'code_execution_20250825'],
    ]);
    expect(JSON.parse(resultsAt(run.messages, 2)[0].content as string)).toEqual(['A-1001', 'A-1002']);
    // Answers to calls from code hold tool_result blocks and nothing else.
    for (const index of [2, 4]) expect((run.messages[index].content as { type: string }[]).every((b) => b.type === 'tool_result')).toBe(true);
    const sent = server.requests[0].body.tools!.find((t) => nameOf(t) === 'listar_pedidos') as { allowed_callers?: string[] };
    expect(sent.allowed_callers).toEqual(['code_execution_20250825']);
    expectValidTranscript(run.messages);
  });

  test.each(LOOPS)('%s: a call from a caller the tool does not allow is answered is_error and never runs', async (loop) => {
    const { provider, tools } = features({ toolSearch: 'regex' });
    const { client } = await scripted([
      {
        ...turn(
          'tool_use',
          codeExecution('srvtoolu_c1', 'await emitir_nota(texto="x")'),
          toolUse('toolu_1', 'emitir_nota', { texto: 'x' }, fromCode('srvtoolu_c1')),
        ),
        container: { id: 'container_1' },
      },
      turn('tool_use', toolUse('toolu_2', 'listar_pedidos', { cliente: 'c-1' })),
      turn('end_turn', text('Não consegui.')),
    ]);

    const { run, events } = await drive(loop, { client, model: MODEL, prompt: 'Emita a nota.', tools, serverTools: [codeExecutionTool] });

    expect(provider.calls).toEqual([]);
    expect(resultsAt(run.messages, 2)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: 'Not run: emitir_nota cannot be called from code_execution_20250825; it accepts calls from direct.' },
    ]);
    expect(resultsAt(run.messages, 4)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_2', is_error: true, content: 'Not run: listar_pedidos cannot be called from direct; it accepts calls from code_execution_20250825.' },
    ]);
    if (loop === 'streamToolLoop') {
      const ends = events.flatMap((e) => (e.type === 'tool_end' ? [[e.toolUseId, e.outcome]] : []));
      expect(ends).toEqual([['toolu_1', 'not_executed'], ['toolu_2', 'not_executed']]);
      expect(events.some((e) => e.type === 'tool_start')).toBe(false);
    }
    expectValidTranscript(run.messages);
  });

  test('the scripted server refuses what the API refuses: text beside results for calls from code, and no container', async () => {
    const { client } = await scripted([]);
    const history: MessageParam[] = [
      { role: 'user', content: 'Como estão meus pedidos?' },
      { role: 'assistant', content: [codeExecution('srvtoolu_c1', CODE), toolUse('toolu_1', 'listar_pedidos', { cliente: 'c-1' }, fromCode('srvtoolu_c1'))] },
    ];
    const result = { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: '["A-1001"]' };
    const send = (last: MessageParam, container?: string) =>
      client.messages.create({ model: MODEL, max_tokens: 100, tools: upFront, messages: [...history, last], ...(container && { container }) });

    await expect(send({ role: 'user', content: [result, { type: 'text', text: 'e agora?' }] }, 'container_1')).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('tool calls made from code execution, so this message may hold only `tool_result` blocks'),
    });
    await expect(send({ role: 'user', content: [result] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('container_id is required when there are pending tool uses generated by code execution'),
    });
  });
});

describe('tool search', () => {
  test.each(LOOPS)('%s: a search loads the deferred tool, which then validates and runs like any other', async (loop) => {
    const { provider, tools } = features({ toolSearch: 'regex' });
    const search = [toolSearch('srvtoolu_s1', 'regex', 'frete|entrega'), toolSearchResult('srvtoolu_s1', ['consultar_frete'])];
    const { server, client } = await scripted([
      turn('tool_use', ...search, toolUse('toolu_1', 'consultar_frete', { cep: 'centro' })),
      turn('tool_use', toolUse('toolu_2', 'consultar_frete', { cep: '01001-000' })),
      turn('end_turn', text('Chega em 5 dias.')),
    ]);

    const { run } = await drive(loop, { client, model: MODEL, prompt: 'Quanto tempo leva a entrega?', tools });

    expect(run.text).toBe('Chega em 5 dias.');
    const sent = server.requests[0].body.tools!;
    expect(sent.find((t) => nameOf(t) === 'consultar_frete')).toMatchObject({ defer_loading: true });
    expect(sent.at(-1)).toMatchObject({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
    // The search blocks pass through untouched, into the history and into the next request.
    expect((run.messages[1].content as unknown[]).slice(0, 2)).toEqual(search);
    expect((server.requests[1].body.messages[1].content as unknown[]).slice(0, 2)).toEqual(search);
    const invalid = resultsAt(run.messages, 2)[0];
    expect(invalid).toMatchObject({ tool_use_id: 'toolu_1', is_error: true });
    expect(String(invalid.content)).toContain('cep');
    expect(provider.calls).toEqual(['consultar_frete:01001-000']);
    expectValidTranscript(run.messages);
  });

  test('bm25 is the other search tool the container adds', async () => {
    const { tools } = features({ toolSearch: 'bm25' });
    const { server, client } = await scripted([turn('end_turn', text('Ok.'))]);
    await runToolLoop({ client, model: MODEL, prompt: 'Oi', tools });
    expect(server.requests[0].body.tools!.at(-1)).toMatchObject({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
  });

  test('a deferred tool without a tool search tool is refused before any request, as the API would refuse it', async () => {
    const { tools } = features();
    const { server, client } = await scripted([]);
    await expect(runToolLoop({ client, model: MODEL, prompt: 'Oi', tools })).rejects.toThrow(
      "runToolLoop: consultar_frete has defer_loading, so the model cannot see it without the tool search tool; create the ToolContainer with toolSearch: 'regex' or 'bm25'.",
    );
    expect(server.requests).toHaveLength(0);
    expect(() => new ToolContainer({ manifest: featureManifest, providers: [new FeatureTools()], toolSearch: 'fuzzy' as never })).toThrow(
      'ToolContainer: toolSearch must be \'regex\' or \'bm25\', got "fuzzy".',
    );
  });

  test('the scripted server refuses a tool_reference to a tool the request does not define', async () => {
    const { client } = await scripted([]);
    await expect(
      client.messages.create({
        model: MODEL,
        max_tokens: 100,
        tools: upFront,
        messages: [
          { role: 'user', content: 'Frete?' },
          { role: 'assistant', content: [toolSearch('srvtoolu_s1', 'regex', 'frete'), toolSearchResult('srvtoolu_s1', ['consultar_frete']), text('Achei.')] },
          { role: 'user', content: 'Então?' },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('tool_reference: the tool consultar_frete is not among') });
  });
});

describe('prompt caching', () => {
  const fiveTurns = () => [
    turn('tool_use', text('Vejo o primeiro.'), toolUse('toolu_1', 'buscar_pedido', { numero: 'A-1001' })),
    turn('tool_use', toolUse('toolu_2', 'buscar_pedido', { numero: 'A-1002' })),
    turn('tool_use', { type: 'thinking', thinking: 'mais um', signature: 'sig' } as never, toolUse('toolu_3', 'buscar_pedido', { numero: 'A-1003' })),
    turn('tool_use', toolUse('toolu_4', 'buscar_pedido', { numero: 'A-1001' }), toolUse('toolu_5', 'buscar_pedido', { numero: 'A-1002' })),
    turn('end_turn', text('Pronto.')),
  ];

  test.each(LOOPS)('%s: the breakpoints of a five-turn run: after the tools, on the last block, and where it was before', async (loop) => {
    const { tools } = features({ toolSearch: 'regex' });
    const { server, client } = await scripted(fiveTurns(), 2, true);

    const { run, events } = await drive(loop, { client, model: MODEL, prompt: 'Meus pedidos?', tools });

    expect(run.turns).toBe(5);
    // The tools' breakpoint is on the last tool loaded up front (the search tool), never on a deferred one.
    const sentTools = server.requests[0].body.tools!;
    const lastUpFront = sentTools.length - 1;
    expect(sentTools[lastUpFront]).toMatchObject({ name: 'tool_search_tool_regex', cache_control: { type: 'ephemeral' } });
    expect(server.requests.map((r) => breakpoints(r.body))).toEqual([
      [`tools.${lastUpFront}`, 'messages.0.0'],
      [`tools.${lastUpFront}`, 'messages.0.0', 'messages.2.0'],
      [`tools.${lastUpFront}`, 'messages.2.0', 'messages.4.0'],
      [`tools.${lastUpFront}`, 'messages.4.0', 'messages.6.0'],
      [`tools.${lastUpFront}`, 'messages.6.0', 'messages.8.1'],
    ]);
    // The stored conversation stays as the model and the tools wrote it.
    expect(JSON.stringify(run.messages)).not.toContain('cache_control');
    // Usage reports the cache: every request after the first reads what the one before wrote.
    const perTurn = server.requests.map((r) => r.body);
    expect(perTurn).toHaveLength(5);
    expect(run.usage.cacheReadInputTokens).toBeGreaterThan(0);
    expect(run.usage.cacheCreationInputTokens).toBeGreaterThan(0);
    if (loop === 'streamToolLoop') {
      const turnUsage = events.flatMap((e) => (e.type === 'turn_end' ? [e.usage] : []));
      expect(turnUsage[0].cacheReadInputTokens).toBe(0);
      for (const usage of turnUsage.slice(1)) expect(usage.cacheReadInputTokens).toBeGreaterThan(0);
      expect(turnUsage.reduce((sum, u) => sum + u.cacheReadInputTokens, 0)).toBe(run.usage.cacheReadInputTokens);
    }
  });

  test('caching lowers the uncached input of a run against the same run without it', async () => {
    const runs: number[] = [];
    for (const promptCaching of [true, false]) {
      const { tools } = features({ toolSearch: 'regex' });
      const { server, client } = await scripted(fiveTurns(), 2, true);
      const run = await runToolLoop({ client, model: MODEL, prompt: 'Meus pedidos?', tools, promptCaching });
      if (!promptCaching) {
        expect(server.requests.map((r) => breakpoints(r.body))).toEqual([[], [], [], [], []]);
        expect(run.usage.cacheReadInputTokens + run.usage.cacheCreationInputTokens).toBe(0);
      }
      runs.push(run.usage.inputTokens);
    }
    expect(runs[0]).toBeLessThan(runs[1]);
  });

  test('none are added when the caller set their own', async () => {
    const { tools } = features({ toolSearch: 'regex' });
    const { server, client } = await scripted(fiveTurns().slice(3));
    await runToolLoop({
      client,
      model: MODEL,
      system: [{ type: 'text', text: 'Você atende a loja.', cache_control: { type: 'ephemeral' } }],
      prompt: 'Meus pedidos?',
      tools,
    });
    for (const request of server.requests) {
      expect(breakpoints(request.body)).toEqual([]);
      expect(JSON.stringify(request.body).match(/cache_control/g)).toHaveLength(1);
    }
  });

  test('the scripted server refuses a fifth breakpoint, as the API does', async () => {
    const { client } = await scripted([]);
    const marked = (t: string) => ({ type: 'text' as const, text: t, cache_control: { type: 'ephemeral' as const } });
    await expect(
      client.messages.create({ model: MODEL, max_tokens: 100, system: [marked('a'), marked('b')], messages: [{ role: 'user', content: [marked('c'), marked('d'), marked('e')] }] }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('A maximum of 4 blocks with cache_control may be provided. Found 5.') });
  });
});

describe('eager input streaming', () => {
  test('an input cut off mid-JSON by max_tokens is kept as INVALID_JSON, as the API takes it back, and never runs', async () => {
    const { provider, tools } = features({ toolSearch: 'regex' });
    const partial = '{"texto": "Nota do ped';
    const events = [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, container: null, usage: { input_tokens: 10, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'emitir_nota', input: {}, caller: { type: 'direct' } } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: partial } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null, container: null }, usage: { output_tokens: 30 } },
      { type: 'message_stop' },
    ];
    const client = { messages: { create: async () => ({ async *[Symbol.asyncIterator]() { yield* events; } }) } } as never;

    const { run } = await drive('streamToolLoop', { client, model: MODEL, prompt: 'Emita a nota.', tools });

    expect(run.stopReason).toBe('max_tokens');
    expect((run.messages[1].content as { input?: unknown }[])[0].input).toEqual({ INVALID_JSON: partial });
    expect(resultsAt(run.messages, 2)[0]).toMatchObject({ tool_use_id: 'toolu_1', is_error: true });
    expect(provider.calls).toEqual([]);
    expectValidTranscript(run.messages);
  });

  test('a tool with eager_input_streaming streams its input to the UI through tool_input_delta; strict stays', async () => {
    const { provider, tools } = features({ toolSearch: 'regex' });
    const texto = 'Nota fiscal do pedido A-1001, '.repeat(4);
    const { server, client } = await scripted([
      { ...turn('tool_use', toolUse('toolu_1', 'emitir_nota', { texto })), stream: { chunkChars: 16 } },
      turn('end_turn', text('Emitida.')),
    ]);

    const { events } = await drive('streamToolLoop', { client, model: MODEL, prompt: 'Emita a nota.', tools });

    expect(server.requests[0].body.tools!.find((t) => nameOf(t) === 'emitir_nota')).toMatchObject({ eager_input_streaming: true, strict: true });
    const deltas = events.flatMap((e) => (e.type === 'tool_input_delta' && e.toolUseId === 'toolu_1' ? [e.partialJson] : []));
    expect(deltas.length).toBeGreaterThan(5);
    expect(JSON.parse(deltas.join(''))).toEqual({ texto });
    const firstDelta = events.findIndex((e) => e.type === 'tool_input_delta');
    expect(firstDelta).toBeLessThan(events.findIndex((e) => e.type === 'tool_call'));
    expect(provider.calls).toEqual([`emitir_nota:${texto.length}`]);
  });
});
