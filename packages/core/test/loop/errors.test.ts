import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { ToolContainer, ToolLoopError, runToolLoop } from '@toolwright/core';
import { apiError, text, toolUse, turn } from '@toolwright/core/testing';
import { OrderTools, ordersManifest } from '../fixtures/orders';
import { MODEL, closeServers, expectValidTranscript, scripted, summary } from './scripted-client';

afterEach(closeServers);

const tools = () => new ToolContainer({ manifest: ordersManifest, providers: [new OrderTools()] });

test('a 429 with retry-after is retried by the SDK and the run goes on', async () => {
  const { server, client } = await scripted([apiError(429, { message: 'rate limit exceeded' }), turn('end_turn', text('Enviado.'))]);

  const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools: tools() });

  expect(run).toMatchObject({ stopReason: 'end_turn', text: 'Enviado.', turns: 1 });
  expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
});

test('a 529 overloaded is retried too', async () => {
  const { server, client } = await scripted([apiError(529), turn('end_turn', text('Enviado.'))]);

  const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools: tools() });

  expect(run.stopReason).toBe('end_turn');
  expect(server.requests.map((r) => r.status)).toEqual([529, 200]);
});

test('a 500 that outlasts the retries rejects with a ToolLoopError carrying the messages so far', async () => {
  const { server, client } = await scripted(
    [turn('tool_use', toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' })), apiError(500), apiError(500), apiError(500)],
    2,
  );

  const error: unknown = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools: tools() }).catch((e: unknown) => e);

  expect(error).toBeInstanceOf(ToolLoopError);
  const loopError = error as ToolLoopError;
  expect(loopError.cause).toBeInstanceOf(Anthropic.InternalServerError);
  expect(loopError.turns).toBe(1);
  expect(summary(loopError.messages)).toEqual(['user: text', 'assistant: tool_use(toolu_01)', 'user: tool_result(toolu_01)']);
  expectValidTranscript(loopError.messages);
  expect(server.requests.map((r) => r.status)).toEqual([200, 500, 500, 500]);
});
