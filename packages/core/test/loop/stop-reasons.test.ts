import 'reflect-metadata';
import type { ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer, runToolLoop } from '@toolwright/core';
import { serverToolUse, text, toolUse, turn, webSearchResult } from '@toolwright/core/testing';
import { OrderTools } from '../fixtures/orders';
import { OrderWrites, ordersWithWritesManifest } from './fixtures/order-writes';
import { MODEL, closeServers, expectValidTranscript, resultsAt, scripted, summary } from './scripted-client';

afterEach(closeServers);

const webSearch: ToolUnion = { type: 'web_search_20250305', name: 'web_search' };

function orders() {
  const reads = new OrderTools();
  const writes = new OrderWrites();
  return { reads, writes, tools: new ToolContainer({ manifest: ordersWithWritesManifest, providers: [reads, writes] }) };
}

describe('pause_turn and server tools', () => {
  test('a paused turn is sent back as it came, and the continuation ends the run', async () => {
    const paused = turn('pause_turn', text('Vou pesquisar.'), serverToolUse('srvtoolu_01', 'web_search', { query: 'prazo de entrega' }));
    const { server, client } = await scripted([
      paused,
      turn('end_turn', webSearchResult('srvtoolu_01', [{ url: 'https://loja.example/prazos', title: 'Prazos' }]), text(' O prazo é de 5 dias.')),
    ]);

    // Without caching, so the resent turn is byte for byte what arrived (no moving breakpoint on it).
    const run = await runToolLoop({ client, model: MODEL, prompt: 'Qual o prazo?', tools: orders().tools, serverTools: [webSearch], promptCaching: false });

    expect(run.stopReason).toBe('end_turn');
    expect(run.text).toBe('Vou pesquisar. O prazo é de 5 dias.');
    expect(run.turns).toBe(2);
    const resent = server.requests[1].body.messages;
    expect(resent.at(-1)).toEqual({ role: 'assistant', content: paused.content });
    expect(summary(run.messages)).toEqual(['user: text', 'assistant: text | server_tool_use(srvtoolu_01)', 'assistant: web_search_tool_result | text']);
    expectValidTranscript(run.messages);
  });

  test('server-tool blocks pass through untouched, the reply to an unfinished server call holds only tool_result blocks, and tools never change', async () => {
    const mixed = turn(
      'tool_use',
      text('Vou pesquisar e consultar.'),
      serverToolUse('srvtoolu_02', 'web_search', { query: 'transportadora' }),
      webSearchResult('srvtoolu_02', [{ url: 'https://loja.example/frete', title: 'Frete' }]),
      serverToolUse('srvtoolu_03', 'web_search', { query: 'feriados' }),
      toolUse('toolu_05', 'buscar_pedido', { numero: 'A-1001' }),
    );
    const { server, client } = await scripted([mixed, turn('end_turn', text('Chega dia 20.'))]);
    const { reads, tools } = orders();

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Quando chega o A-1001?', tools, serverTools: [webSearch] });

    expect(run.stopReason).toBe('end_turn');
    expect(reads.calls).toEqual(['toolu_05:A-1001']);
    expect(server.requests[1].body.messages[1]).toEqual({ role: 'assistant', content: mixed.content });
    expect(run.messages[2].content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_05' })]);
    expect(server.requests[1].body.tools).toEqual(server.requests[0].body.tools);
    expect(server.requests[0].body.tools?.map((t) => ('name' in t ? t.name : t.type))).toEqual(['buscar_pedido', 'cancelar_pedido', 'web_search']);
    expectValidTranscript(run.messages);
  });
});

describe('max_tokens', () => {
  test('a tool_use in a cut-off response does not run; it is answered as cut off and the run ends', async () => {
    const { server, client } = await scripted([
      turn('max_tokens', text('Vou cancelar o pedido'), toolUse('toolu_06', 'cancelar_pedido', { numero: 'A-10' })),
    ]);
    const { writes, tools } = orders();

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Cancele o A-1001.', tools });

    expect(run.stopReason).toBe('max_tokens');
    expect(run.text).toMatch(/did not complete/);
    expect(writes.cancelled).toEqual([]);
    expect(resultsAt(run.messages, 2)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_06', is_error: true, content: expect.stringContaining('cut off') },
    ]);
    expect(server.requests).toHaveLength(1);
    expectValidTranscript(run.messages);
  });

  test('a cut-off answer without tool calls is returned as it is', async () => {
    const { client } = await scripted([turn('max_tokens', text('O pedido A-1001 foi'))]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Onde está o A-1001?', tools: orders().tools });

    expect(run).toMatchObject({ stopReason: 'max_tokens', text: 'O pedido A-1001 foi', turns: 1 });
    expectValidTranscript(run.messages);
  });
});

test.each(['refusal', 'end_turn', 'stop_sequence', 'model_context_window_exceeded'] as const)(
  '%s ends the run with that reason and the model text',
  async (stopReason) => {
    const { client } = await scripted([turn(stopReason, text('Não posso ajudar com isso.'))]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Olá', tools: orders().tools });

    expect(run).toMatchObject({ stopReason, text: 'Não posso ajudar com isso.', turns: 1 });
    expectValidTranscript(run.messages);
  },
);

test('a tool_use in a refused turn is answered, not run', async () => {
  const { client } = await scripted([turn('refusal', toolUse('toolu_07', 'cancelar_pedido', { numero: 'A-1001' }))]);
  const { writes, tools } = orders();

  const run = await runToolLoop({ client, model: MODEL, prompt: 'Cancele tudo.', tools });

  expect(run.stopReason).toBe('refusal');
  expect(writes.cancelled).toEqual([]);
  expect(resultsAt(run.messages, 2)[0]).toMatchObject({ tool_use_id: 'toolu_07', is_error: true });
  expectValidTranscript(run.messages);
});

test('usage is summed over the turns', async () => {
  const { client } = await scripted([
    { ...turn('tool_use', toolUse('toolu_08', 'buscar_pedido', { numero: 'A-1001' })), usage: { input_tokens: 100, output_tokens: 30, cache_read_input_tokens: 50 } },
    { ...turn('end_turn', text('Enviado.')), usage: { input_tokens: 150, output_tokens: 12 } },
  ]);

  const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools: orders().tools });

  expect(run.usage).toEqual({ inputTokens: 250, outputTokens: 42, cacheCreationInputTokens: 0, cacheReadInputTokens: 50 });
});
