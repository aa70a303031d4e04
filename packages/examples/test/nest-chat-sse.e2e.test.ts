import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import type { ApprovalPolicy, ToolStreamEvent } from '@toolwright/core';
import { checkTranscript, text, toolUse, turn, type ScriptedServer, type ScriptedTurn } from '@toolwright/core/testing';
import { OrdersRepository } from '../src/orders/orders.repository';
import { closeExampleApps, startExampleApp } from './fixtures/example-app';

let server: ScriptedServer | undefined;
let app: INestApplication | undefined;

afterEach(async () => {
  await closeExampleApps();
  app = server = undefined;
});

async function startApp(turns: ScriptedTurn[], approval: ApprovalPolicy = 'none'): Promise<string> {
  let url: string;
  ({ url, app, server } = await startExampleApp(turns, { approval }));
  return url;
}

function postChat(url: string, message: string, init: { accept?: string } = {}) {
  return post(`${url}/chat`, { message }, init);
}

function post(url: string, body: unknown, init: { accept?: string; customer?: string } = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-customer-id': init.customer ?? 'C-ana', ...(init.accept && { accept: init.accept }) },
    body: JSON.stringify(body),
  });
}

interface Frame {
  name: string;
  event: ToolStreamEvent;
  /** How many requests the scripted server had recorded when the client read this frame. */
  requestsSoFar: number;
}

/** Reads the body chunk by chunk as it arrives, one frame per `event:`/`data:` pair; stops when `until` says so. */
async function readFrames(response: Response, until: (frame: Frame) => boolean = () => false): Promise<Frame[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const frames: Frame[] = [];
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return frames;
    pending += value;
    let end: number;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const [nameLine, dataLine, ...rest] = pending.slice(0, end).split('\n');
      pending = pending.slice(end + 2);
      expect(rest).toEqual([]);
      expect(nameLine).toMatch(/^event: /);
      expect(dataLine).toMatch(/^data: /);
      const frame = { name: nameLine.slice(7), event: JSON.parse(dataLine.slice(6)) as ToolStreamEvent, requestsSoFar: server!.requests.length };
      frames.push(frame);
      if (until(frame)) {
        await reader.cancel();
        return frames;
      }
    }
  }
}

const position = (frames: Frame[], match: (event: ToolStreamEvent) => boolean) => frames.findIndex((f) => match(f.event));

describe('POST /chat as Server-Sent Events', () => {
  it('streams the events in order: text as it is written, an eager read before the message ends, done last', async () => {
    const url = await startApp([
      {
        ...turn('tool_use', text('Vou consultar.'), toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' }), text('Um momento.')),
        // The read is released when the block after it starts; the rest of the message takes 40 ms per event.
        stream: { chunkChars: 4, delayMs: (event) => (event.type === 'content_block_delta' && event.index === 2 ? 40 : 5) },
      },
      { ...turn('end_turn', text('O pedido A-1001 foi enviado e chega até 20/10/2026.')), stream: { chunkChars: 6, delayMs: 5 } },
    ]);

    const response = await postChat(url, 'Onde está o pedido A-1001?', { accept: 'text/event-stream' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = await readFrames(response);
    const events = frames.map((f) => f.event);

    for (const frame of frames) expect(frame.name).toBe(frame.event.type);
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'end_turn', turns: 2, text: 'O pedido A-1001 foi enviado e chega até 20/10/2026.' });
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
    // The client read the first text before the loop had even sent the tool result back: a stream, not a buffered reply.
    expect(frames.find((f) => f.event.type === 'text_delta')!.requestsSoFar).toBeLessThan(2);
    expect(frames.at(-1)!.requestsSoFar).toBe(2);

    const turnOne = events.filter((e) => 'turn' in e && e.turn === 1).map((e) => e.type);
    expect(turnOne[0]).toBe('turn_start');
    expect(turnOne.at(-1)).toBe('turn_end');
    const toolStart = position(frames, (e) => e.type === 'tool_start');
    expect(events[toolStart]).toMatchObject({ type: 'tool_start', turn: 1, toolUseId: 'toolu_01', toolName: 'buscar_pedido', effect: 'read', eager: true });
    expect(position(frames, (e) => e.type === 'tool_call')).toBeLessThan(toolStart);
    // Started while the model was still writing its message: before the last block's text arrived.
    const lastDeltaOfMessage = events.map((e) => e.type === 'text_delta' && e.turn === 1 && e.index === 2).lastIndexOf(true);
    expect(toolStart).toBeLessThan(lastDeltaOfMessage);
    expect(events.filter((e) => e.type === 'text_delta' && e.turn === 1 && e.index === 2).map((e) => (e as { text: string }).text).join('')).toBe('Um momento.');
    expect(position(frames, (e) => e.type === 'tool_end' && e.toolUseId === 'toolu_01')).toBeGreaterThan(toolStart);

    const turnTwoStart = position(frames, (e) => e.type === 'turn_start' && e.turn === 2);
    expect(turnTwoStart).toBeGreaterThan(position(frames, (e) => e.type === 'turn_end' && e.turn === 1));
    const finalText = events.filter((e) => e.type === 'text_delta' && e.turn === 2).map((e) => (e as { text: string }).text);
    expect(finalText.length).toBeGreaterThan(1);
    expect(finalText.join('')).toBe('O pedido A-1001 foi enviado e chega até 20/10/2026.');
    expect(position(frames, (e) => e.type === 'text_delta' && e.turn === 2)).toBeGreaterThan(turnTwoStart);

    // The conversation the loop sent back is valid, with the read's result answering its call.
    const resent = server!.requests[1].body.messages;
    expect(checkTranscript(resent)).toEqual([]);
    expect(resent.at(-1)).toEqual({
      role: 'user',
      // objectContaining: the loop also moves its prompt-cache breakpoint onto the last result.
      content: [expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"status":"enviado","previsao":"2026-10-20"}' })],
    });
  });

  it('answers JSON as before when the client does not ask for a stream', async () => {
    const url = await startApp([turn('end_turn', text('Olá!'))]);
    const response = await postChat(url, 'Oi', { accept: 'application/json' });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ text: 'Olá!', stopReason: 'end_turn', turns: 1 });
    expect(server!.requests[0].body.stream).toBeUndefined();
  });

  it('a client that disconnects mid-stream does not change what runs: the write is committed and the loop finishes', async () => {
    let finished!: () => void;
    const secondRequest = new Promise<void>((resolve) => (finished = resolve));
    const url = await startApp([
      {
        ...turn('tool_use', text('Vou cancelar o pedido A-1001.'), toolUse('toolu_02', 'cancelar_pedido', { numero: 'A-1001' })),
        stream: { chunkChars: 3, delayMs: 15 },
      },
      (request) => {
        finished();
        const last = request.body.messages.at(-1)!;
        expect(checkTranscript(request.body.messages)).toEqual([]);
        expect(last.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_02' })]);
        return turn('end_turn', text('Pedido A-1001 cancelado.'));
      },
    ]);

    const response = await postChat(url, 'Cancele o A-1001', { accept: 'text/event-stream' });
    const frames = await readFrames(response, (frame) => frame.event.type === 'text_delta');
    expect(frames.at(-1)!.event.type).toBe('text_delta');
    expect(frames.some((f) => f.event.type === 'tool_start')).toBe(false);

    await secondRequest;
    expect((await app!.get(OrdersRepository).find('A-1001'))?.status).toBe('cancelado');
    expect(server!.requests).toHaveLength(2);
  });
});

describe('POST /runs/:id/decisions as Server-Sent Events', () => {
  const SSE = 'text/event-stream';

  it('streams the resumed run after a streamed pause; refusals stay HTTP statuses, another customer gets 404', async () => {
    let clientReadToolEnd!: () => void;
    const toolEndRead = new Promise<void>((resolve) => (clientReadToolEnd = resolve));
    const url = await startApp(
      [
        turn('tool_use', text('Vou cancelar o pedido A-1001.'), toolUse('toolu_02', 'cancelar_pedido', { numero: 'A-1001' })),
        // The model answers only once the client has read the write's tool_end: the events reach it while the run goes on.
        async () => {
          await toolEndRead;
          return { ...turn('end_turn', text('Pedido A-1001 cancelado.')), stream: { chunkChars: 4, delayMs: 5 } };
        },
      ],
      'writes',
    );
    const orders = app!.get(OrdersRepository);

    const paused = await readFrames(await postChat(url, 'Cancele o A-1001', { accept: SSE }));
    const asked = paused.at(-2)!.event;
    expect(asked).toMatchObject({ type: 'approval_required', pending: [{ toolUseId: 'toolu_02', toolName: 'cancelar_pedido' }] });
    expect(paused.at(-1)!.event).toMatchObject({ type: 'done', stopReason: 'approval_required' });
    const runId = (asked as { runId: string }).runId;
    const decide = (decisions: unknown, customer?: string) => post(`${url}/runs/${runId}/decisions`, { decisions }, { accept: SSE, customer });

    const stranger = await decide({ toolu_02: { approve: true } }, 'C-bruno');
    expect(stranger.status).toBe(404);
    expect(stranger.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await stranger.json()).toMatchObject({ message: `There is no run ${JSON.stringify(runId)} for this customer.` });
    const wrong = await decide({ toolu_99: { approve: true } });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ message: expect.stringContaining('has no pending call "toolu_99"') });
    expect(orders.cancellations).toEqual([]);
    expect(server!.requests).toHaveLength(1);

    const response = await decide({ toolu_02: { approve: true } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = await readFrames(response, (frame) => {
      if (frame.event.type === 'tool_end') clientReadToolEnd();
      return false;
    });
    const events = frames.map((f) => f.event);
    for (const frame of frames) expect(frame.name).toBe(frame.event.type);
    // The paused batch first, answered in turn 1 where the model asked for it; then the next request.
    expect(events.slice(0, 4)).toEqual([
      expect.objectContaining({ type: 'tool_call', turn: 1, call: expect.objectContaining({ id: 'toolu_02' }) }),
      expect.objectContaining({ type: 'tool_start', turn: 1, toolUseId: 'toolu_02', effect: 'write', eager: false }),
      expect.objectContaining({ type: 'tool_end', turn: 1, toolUseId: 'toolu_02', outcome: 'ok', isError: false }),
      expect.objectContaining({ type: 'turn_start', turn: 2 }),
    ]);
    const finalText = events.filter((e) => e.type === 'text_delta' && e.turn === 2).map((e) => (e as { text: string }).text);
    expect(finalText.length).toBeGreaterThan(1);
    expect(finalText.join('')).toBe('Pedido A-1001 cancelado.');
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'end_turn', turns: 2, text: 'Pedido A-1001 cancelado.' });
    expect(orders.cancellations).toEqual(['A-1001']);
    const resent = server!.requests[1].body.messages;
    expect(checkTranscript(resent)).toEqual([]);
    expect(resent.at(-1)!.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_02' })]);

    // The same decision again: 409 before any stream, and nothing runs.
    const repeated = await decide({ toolu_02: { approve: true } });
    expect(repeated.status).toBe(409);
    expect(await repeated.json()).toMatchObject({ message: expect.stringMatching(/is finished/) });
    expect(orders.cancellations).toEqual(['A-1001']);
    expect(server!.requests).toHaveLength(2);
  });
});
