import 'reflect-metadata';
import { ToolContainer, runToolLoop } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { OrderTools, ordersManifest } from '../fixtures/orders';
import { MODEL, closeServers, expectValidTranscript, resultsAt, scripted, summary } from './scripted-client';

// The three scenarios of the lesson's section 8, through the real SDK over HTTP.

afterEach(closeServers);

function orders() {
  const provider = new OrderTools();
  return { provider, tools: new ToolContainer({ manifest: ordersManifest, providers: [provider] }) };
}

test('scenario 1: one call, then the answer', async () => {
  const { server, client } = await scripted([
    turn('tool_use', text('Vou consultar o pedido.'), toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' })),
    turn('end_turn', text('O pedido A-1001 foi enviado e chega até 20/10/2026.')),
  ]);
  const { provider, tools } = orders();

  const run = await runToolLoop({ client, model: MODEL, prompt: 'Onde está o pedido A-1001?', tools });

  expect(run.text).toBe('O pedido A-1001 foi enviado e chega até 20/10/2026.');
  expect(run.stopReason).toBe('end_turn');
  expect(run.turns).toBe(2);
  expect(summary(run.messages)).toEqual([
    'user: text',
    'assistant: text | tool_use(toolu_01)',
    'user: tool_result(toolu_01)',
    'assistant: text',
  ]);
  expect(JSON.parse(resultsAt(run.messages, 2)[0].content as string)).toEqual({ status: 'enviado', previsao: '2026-10-20' });
  expect(provider.calls).toEqual(['toolu_01:A-1001']);
  expect(server.requests.map((r) => r.status)).toEqual([200, 200]);
  expectValidTranscript(run.messages);
});

test('scenario 2: "1002" is refused before any lookup, and the corrected "A-1002" runs', async () => {
  const { client } = await scripted([
    turn('tool_use', toolUse('toolu_02', 'buscar_pedido', { numero: '1002' })),
    turn('tool_use', toolUse('toolu_03', 'buscar_pedido', { numero: 'A-1002' })),
    turn('end_turn', text('O pedido A-1002 já foi entregue.')),
  ]);
  const { provider, tools } = orders();

  const run = await runToolLoop({ client, model: MODEL, prompt: 'O pedido 1002 chegou?', tools });

  expect(run.text).toBe('O pedido A-1002 já foi entregue.');
  expect(summary(run.messages)).toEqual([
    'user: text',
    'assistant: tool_use(toolu_02)',
    'user: tool_result(toolu_02, is_error)',
    'assistant: tool_use(toolu_03)',
    'user: tool_result(toolu_03)',
    'assistant: text',
  ]);
  const [refusal] = resultsAt(run.messages, 2);
  expect(refusal.content).toContain('numero');
  expect(refusal.content).toContain('1002');
  expect(JSON.parse(resultsAt(run.messages, 4)[0].content as string)).toEqual({ status: 'entregue', previsao: null });
  expect(provider.calls).toEqual(['toolu_03:A-1002']);
  expectValidTranscript(run.messages);
});

test('scenario 3: two calls in one response are answered in one message, in order', async () => {
  const { server, client } = await scripted([
    turn('tool_use', toolUse('toolu_04a', 'buscar_pedido', { numero: 'A-1001' }), toolUse('toolu_04b', 'buscar_pedido', { numero: 'A-1002' })),
    turn('end_turn', text('O A-1001 foi enviado e o A-1002 já foi entregue.')),
  ]);
  const { tools } = orders();

  const run = await runToolLoop({ client, model: MODEL, prompt: 'Como estão os pedidos A-1001 e A-1002?', tools });

  expect(run.text).toBe('O A-1001 foi enviado e o A-1002 já foi entregue.');
  expect(summary(run.messages)).toEqual([
    'user: text',
    'assistant: tool_use(toolu_04a) | tool_use(toolu_04b)',
    'user: tool_result(toolu_04a) | tool_result(toolu_04b)',
    'assistant: text',
  ]);
  expect(resultsAt(run.messages, 2).map((r) => JSON.parse(r.content as string).status)).toEqual(['enviado', 'entregue']);
  // What the second request carried is what the API would have judged.
  expect(summary(server.requests[1].body.messages)).toEqual(summary(run.messages.slice(0, 3)));
  expectValidTranscript(run.messages);
});
