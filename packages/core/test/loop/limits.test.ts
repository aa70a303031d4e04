import 'reflect-metadata';
import { getEventListeners } from 'node:events';
import { ToolContainer, runToolLoop, streamToolLoop, type ToolLoopEvent } from '@toolwright/core';
import { text, toolUse, turn, type ScriptedTurn } from '@toolwright/core/testing';
import { OrderTools } from '../fixtures/orders';
import { toMessage } from './fixtures/fake-stream-client';
import { OrderWrites, ordersWithWritesManifest } from './fixtures/order-writes';
import { runClock } from './fixtures/run-clock';
import { MODEL, closeServers, expectValidTranscript, resultsAt, scripted } from './scripted-client';

afterEach(closeServers);

function orders() {
  const reads = new OrderTools();
  const writes = new OrderWrites();
  return { reads, writes, tools: new ToolContainer({ manifest: ordersWithWritesManifest, providers: [reads, writes] }) };
}

const lookup = (id: string, usage?: { output_tokens: number }): ScriptedTurn => ({
  ...turn('tool_use', toolUse(id, 'buscar_pedido', { numero: 'A-1001' })),
  ...(usage && { usage }),
});

describe('maxTurns', () => {
  test('a write asked for at the turn limit never runs; it is answered "not executed" and the user is told', async () => {
    const { server, client } = await scripted([lookup('toolu_01'), turn('tool_use', toolUse('toolu_02', 'cancelar_pedido', { numero: 'A-1001' }))]);
    const { reads, writes, tools } = orders();

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Cancele o A-1001.', tools, maxTurns: 2 });

    expect(run.stopReason).toBe('max_turns');
    expect(run.text).toBe('The operation did not complete: the turn limit (2) was reached.');
    expect(reads.calls).toEqual(['toolu_01:A-1001']);
    expect(writes.cancelled).toEqual([]);
    expect(resultsAt(run.messages, 4)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_02', is_error: true, content: 'Not executed: the turn limit (2) reached.' },
    ]);
    expect(server.requests).toHaveLength(2);
    expectValidTranscript(run.messages);
  });

  test('defaults to 10 requests for a model that never stops asking', async () => {
    const { server, client } = await scripted(Array.from({ length: 11 }, (_, i) => lookup(`toolu_${i}`)));

    const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools: orders().tools });

    expect(run).toMatchObject({ stopReason: 'max_turns', turns: 10 });
    expect(server.remaining).toBe(1);
    expectValidTranscript(run.messages);
  });

  test('a run stopped at a limit resumes from its messages', async () => {
    const { server, client } = await scripted([lookup('toolu_01'), turn('end_turn', text('Enviado.'))]);
    const { reads, tools } = orders();

    const first = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools, maxTurns: 1 });
    const resumed = await runToolLoop({ client, model: MODEL, messages: first.messages, tools });

    expect(first.stopReason).toBe('max_turns');
    expect(reads.calls).toEqual([]);
    expect(resumed).toMatchObject({ stopReason: 'end_turn', text: 'Enviado.' });
    expect(server.requests.map((r) => r.status)).toEqual([200, 200]);
    expectValidTranscript(resumed.messages);
  });
});

test('the output-token budget stops tools once reached', async () => {
  const { client } = await scripted([lookup('toolu_01', { output_tokens: 60 }), lookup('toolu_02', { output_tokens: 60 })]);
  const { reads, tools } = orders();

  const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools, budget: { outputTokens: 100 } });

  expect(run.stopReason).toBe('output_tokens_budget');
  expect(run.text).toMatch(/did not complete: the output token budget \(100\)/);
  expect(reads.calls).toEqual(['toolu_01:A-1001']);
  expect(resultsAt(run.messages, 4)[0]).toMatchObject({ tool_use_id: 'toolu_02', is_error: true, content: expect.stringContaining('Not executed') });
  expect(run.usage.outputTokens).toBe(120);
  expectValidTranscript(run.messages);
});

test('the time budget stops tools asked for after it ran out', async () => {
  // The request takes two budgets: the scripted model moves the engine's clock on as it answers,
  // so however long this machine takes to set the run up, the budget runs out during the request.
  const clock = runClock();
  try {
    const slowLookup: ScriptedTurn = () => {
      clock.advance(120_000);
      return turn('tool_use', toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' }));
    };
    const { client } = await scripted([slowLookup]);
    const { reads, tools } = orders();

    const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools, budget: { ms: 60_000 } });

    expect(run.stopReason).toBe('time_budget');
    expect(run.text).toMatch(/did not complete: the time budget \(60000 ms\)/);
    expect(reads.calls).toEqual([]);
    expect(resultsAt(run.messages, 2)[0]).toMatchObject({ is_error: true, content: 'Not executed: the time budget (60000 ms) reached.' });
    expectValidTranscript(run.messages);
  } finally {
    clock.restore();
  }
});

test('a response that brings the output tokens exactly to the budget stops the tools it asked for', async () => {
  const { client } = await scripted([lookup('toolu_01', { output_tokens: 100 })]);
  const { reads, tools } = orders();

  const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools, budget: { outputTokens: 100 } });

  expect(run.stopReason).toBe('output_tokens_budget');
  expect(reads.calls).toEqual([]);
});

test('a request that takes exactly the time budget stops the tools it asked for', async () => {
  // The clock is the engine's only reading of time here: the request moves it by exactly the budget.
  let now = 1_000_000;
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
  try {
    const client = {
      messages: {
        create: async () => {
          now += 50;
          return toMessage(turn('tool_use', toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' })), 0);
        },
      },
    } as never;
    const { reads, tools } = orders();

    const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools, budget: { ms: 50 } });

    expect(run.stopReason).toBe('time_budget');
    expect(reads.calls).toEqual([]);
  } finally {
    clock.mockRestore();
  }
});

test('a run leaves no listener on the signal it was given: one signal can serve many runs', async () => {
  const controller = new AbortController();
  const { client } = await scripted([turn('end_turn', text('um')), turn('end_turn', text('dois'))]);
  for (const prompt of ['1?', '2?']) {
    await expect(runToolLoop({ client, model: MODEL, prompt, tools: orders().tools, signal: controller.signal })).resolves.toMatchObject({ stopReason: 'end_turn' });
  }
  expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
});

test('an onEvent listener that throws is logged and changes nothing of the run', async () => {
  const logged: unknown[][] = [];
  const error = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
  try {
    const { client } = await scripted([lookup('toolu_01'), turn('end_turn', text('enviado'))]);
    const { reads, tools } = orders();
    const run = await runToolLoop({
      client,
      model: MODEL,
      prompt: 'A-1001?',
      tools,
      onEvent: () => {
        throw new Error('listener bug');
      },
    });

    expect(run).toMatchObject({ stopReason: 'end_turn', text: 'enviado' });
    expect(reads.calls).toEqual(['toolu_01:A-1001']);
    expect(logged[0]).toEqual([expect.stringMatching(/^toolwright: an onEvent listener threw on request; the run is unaffected:/), expect.objectContaining({ message: 'listener bug' })]);
  } finally {
    error.mockRestore();
  }
});

describe('an aborted signal', () => {
  test('aborted after the response: the tools asked for do not run', async () => {
    const { client } = await scripted([turn('tool_use', toolUse('toolu_01', 'cancelar_pedido', { numero: 'A-1001' }))]);
    const { writes, tools } = orders();
    const controller = new AbortController();
    const events: ToolLoopEvent[] = [];

    const run = await runToolLoop({
      client,
      model: MODEL,
      prompt: 'Cancele o A-1001.',
      tools,
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'response') controller.abort();
      },
    });

    expect(run.stopReason).toBe('aborted');
    expect(run.text).toMatch(/did not complete/);
    expect(writes.cancelled).toEqual([]);
    expect(resultsAt(run.messages, 2)[0]).toMatchObject({ is_error: true, content: 'Not executed: the run was aborted.' });
    expect(events.at(-1)).toMatchObject({ type: 'limit', limit: 'aborted', notExecuted: ['toolu_01'] });
    expectValidTranscript(run.messages);
  });

  test('aborted during a request: the run resolves with what it had', async () => {
    const controller = new AbortController();
    const { client } = await scripted([
      () => {
        controller.abort();
        return turn('end_turn', text('tarde demais'));
      },
    ]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools: orders().tools, signal: controller.signal });

    expect(run).toMatchObject({ stopReason: 'aborted', turns: 0, messages: [{ role: 'user', content: 'A-1001?' }] });
  });

  // Node's fetch can leave the body's read pending forever when the request is aborted after its
  // last bytes arrived (nodejs/node#56917), and the SDK waits on it: the loop must not.
  const hangingClient = () => {
    const never = new Promise<never>(() => undefined);
    const events = (async function* () {
      yield { type: 'message_start', message: toMessage(turn('end_turn'), 0) };
      await never;
    })();
    return { messages: { create: (body: { stream?: boolean }) => (body.stream ? Promise.resolve(events) : never) } } as never;
  };
  test.each([
    ['runToolLoop: a request that never settles', (signal: AbortSignal) => runToolLoop({ client: hangingClient(), model: MODEL, prompt: 'A-1001?', tools: orders().tools, signal })],
    ['streamToolLoop: a stream whose next event never comes', (signal: AbortSignal) => streamToolLoop({ client: hangingClient(), model: MODEL, prompt: 'A-1001?', tools: orders().tools, signal }).result],
  ])('%s: the abort still ends the run', async (_name, start) => {
    const controller = new AbortController();
    const run = start(controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(run).resolves.toMatchObject({ stopReason: 'aborted', messages: [{ role: 'user', content: 'A-1001?' }] });
  });

  test('aborted before the run: no request is sent', async () => {
    const { server, client } = await scripted([]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools: orders().tools, signal: AbortSignal.abort() });

    expect(run.stopReason).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});

test('onEvent sees each request, response and tool call, in order', async () => {
  const { client } = await scripted([lookup('toolu_01'), turn('end_turn', text('Enviado.'))]);
  const events: ToolLoopEvent[] = [];

  await runToolLoop({ client, model: MODEL, prompt: 'A-1001?', tools: orders().tools, onEvent: (e) => events.push(e) });

  expect(events.map((e) => e.type)).toEqual(['request', 'response', 'call_start', 'call_end', 'request', 'response']);
  expect(events[1]).toMatchObject({ turn: 1, stopReason: 'tool_use' });
  expect(events[3]).toMatchObject({ toolUseId: 'toolu_01', outcome: 'ok' });
});

test('messages that already break the protocol are refused before anything is sent', async () => {
  const { server, client } = await scripted([]);

  await expect(
    runToolLoop({
      client,
      model: MODEL,
      messages: [
        { role: 'user', content: 'A-1001?' },
        { role: 'assistant', content: [toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' })] },
      ],
      prompt: 'e agora?',
      tools: orders().tools,
    }),
  ).rejects.toThrow(/without `tool_result` blocks immediately after: toolu_01/);
  expect(server.requests).toHaveLength(0);
});
