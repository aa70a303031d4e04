import 'reflect-metadata';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta';
import { ToolContainer } from '@toolwright/core';
import { checkTranscript, text, toolUse, turn } from '@toolwright/core/testing';
import { OrderTools, ordersManifest } from '../fixtures/orders';
import { MODEL, closeServers, scripted } from '../loop/scripted-client';
import { ShopTools, Timeline, shopManifest, sleep } from '../loop/fixtures/shop-tools';

afterEach(closeServers);

function orders() {
  const provider = new OrderTools();
  return { provider, tools: new ToolContainer({ manifest: ordersManifest, providers: [provider] }) };
}

test("the SDK's own tool runner runs the container's tools through its validation and error contract", async () => {
  const { server, client } = await scripted([
    turn('tool_use', toolUse('toolu_02', 'buscar_pedido', { numero: '1002' })),
    turn('tool_use', toolUse('toolu_03', 'buscar_pedido', { numero: 'A-1002' }), toolUse('toolu_04', 'buscar_pedido', { numero: 'A-9999' })),
    turn('end_turn', text('O pedido A-1002 já foi entregue; o A-9999 não existe.')),
  ]);
  const { provider, tools } = orders();
  const expected = await orders().tools.execute([
    toolUse('toolu_02', 'buscar_pedido', { numero: '1002' }),
    toolUse('toolu_04', 'buscar_pedido', { numero: 'A-9999' }),
  ]);

  const final = await client.beta.messages.toolRunner({
    model: MODEL,
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'O pedido 1002 chegou? E o A-9999?' }],
    tools: tools.asRunnableTools(),
  });

  expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: 'O pedido A-1002 já foi entregue; o A-9999 não existe.' })]);
  expect(provider.calls).toEqual(['toolu_03:A-1002', 'toolu_04:A-9999']);
  const sent = server.requests.filter((r) => r.status === 200).map((r) => r.body.messages as BetaMessageParam[]);
  const last = sent.at(-1)!;
  expect(last[2]).toEqual({ role: 'user', content: [expected[0]] });
  expect(last[4]).toEqual({
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_03', content: JSON.stringify({ status: 'entregue', previsao: null }) },
      expected[1],
    ],
  });
  expect(checkTranscript([...last, { role: 'assistant', content: final.content }])).toEqual([]);
  // The definitions the runner sent are the container's, without `run` or `parse`.
  expect(server.requests.at(-1)!.body.tools).toEqual(tools.definitions());
  // The runner first asks for a server-held thread; the scripted server declines, as a surface
  // without threads does, and the runner sends the whole conversation from then on.
  expect(server.requests.map((r) => [r.status, 'thread' in r.body])).toEqual([
    [400, true],
    [200, false],
    [200, false],
    [200, false],
  ]);
});

describe('the read/write rule inside the runner', () => {
  const writeTurn = () =>
    ({
      ...turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'reservar', { sku: 'X1' }), toolUse('toolu_03', 'ler_preco', { sku: 'X1' }), text('Feito.')),
      stream: { delayMs: 15 },
    }) as const;

  function shop() {
    const timeline = new Timeline();
    // The first read outlasts the streaming of the blocks after it, and so does the write.
    const wait = (id: string, signal: AbortSignal) => sleep(id === 'toolu_03' ? 10 : 200)(id, signal);
    return { timeline, tools: new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, wait)] }) };
  }

  function expectOrdered(timeline: Timeline) {
    const seq = (what: string, id: string) => timeline.find(what, id)!.seq;
    expect(seq('write_start', 'toolu_02')).toBeGreaterThan(seq('read_end', 'toolu_01'));
    expect(seq('read_start', 'toolu_03')).toBeGreaterThan(seq('write_end', 'toolu_02'));
  }

  test('calls the runner starts together are one batch: the write runs alone, after the read before it', async () => {
    const { client } = await scripted([writeTurn(), turn('end_turn', text('Reservado.'))]);
    const { timeline, tools } = shop();

    await client.beta.messages.toolRunner({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'Reserve X1.' }], tools: tools.asRunnableTools() });

    expectOrdered(timeline);
  });

  test('with runToolsEagerly, the write still waits for every call before it, and the read after it for the write', async () => {
    const { client } = await scripted([writeTurn(), turn('end_turn', text('Reservado.'))]);
    const { timeline, tools } = shop();

    const runner = client.beta.messages.toolRunner({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Reserve X1.' }],
      tools: tools.asRunnableTools(),
      stream: true,
      runToolsEagerly: true,
    });
    for await (const stream of runner) await stream.finalMessage();

    expectOrdered(timeline);
  });

  test('a failed write halts the calls started with it', async () => {
    const { client } = await scripted([
      turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 7 }), toolUse('toolu_02', 'ler_preco', { sku: 'X1' })),
      turn('end_turn', text('Não deu.')),
    ]);
    const { timeline, tools } = shop();

    await client.beta.messages.toolRunner({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'Reserve.' }], tools: tools.asRunnableTools() });

    expect(timeline.marks).toEqual([]);
  });
});
