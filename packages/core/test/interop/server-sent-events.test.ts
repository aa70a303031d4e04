import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HIDDEN_ERROR_TEXT, ToolContainer, streamToolLoop, toServerSentEvents, type ToolStreamEvent } from '@toolwright/core';
import { apiError, text, toolUse, turn } from '@toolwright/core/testing';
import { ShopTools, Timeline, shopManifest } from '../loop/fixtures/shop-tools';
import { MODEL, closeServers, scripted } from '../loop/scripted-client';

let app: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (app ? app.close(resolve) : resolve(undefined)));
  app = undefined;
  await closeServers();
});

test('toServerSentEvents writes one text/event-stream frame per event, as they happen, ending with done', async () => {
  const { client } = await scripted([
    { ...turn('tool_use', text('Vou ver.'), toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })), stream: { delayMs: (_e, i) => (i === 3 ? 300 : 0) } },
    turn('end_turn', text('Há 3, com "aspas"\ne quebra de linha.')),
  ]);
  const tools = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(new Timeline())] });
  app = createServer((_req, res) => {
    res.setHeader('content-type', 'text/event-stream');
    toServerSentEvents(streamToolLoop({ client, model: MODEL, prompt: 'X1?', tools })).pipe(res);
  });
  await new Promise<void>((resolve) => app!.listen(0, '127.0.0.1', resolve));

  const response = await fetch(`http://127.0.0.1:${(app.address() as AddressInfo).port}/chat`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let body = '';
  let firstChunkAt: number | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    firstChunkAt ??= Date.now();
    body += decoder.decode(value, { stream: true });
  }
  const endedAt = Date.now();

  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const frames = body.split('\n\n').filter(Boolean).map((frame) => {
    const [eventLine, dataLine, ...rest] = frame.split('\n');
    expect(rest).toEqual([]);
    return { name: eventLine.replace(/^event: /, ''), data: JSON.parse(dataLine.replace(/^data: /, '')) as ToolStreamEvent };
  });
  expect(frames.every((f) => f.name === f.data.type)).toBe(true);
  expect(frames[0].name).toBe('turn_start');
  expect(frames.at(-1)).toMatchObject({ name: 'done', data: { stopReason: 'end_turn', text: 'Há 3, com "aspas"\ne quebra de linha.' } });
  expect(frames.map((f) => f.name)).toEqual(expect.arrayContaining(['text_delta', 'tool_call', 'tool_start', 'tool_end', 'turn_end']));
  // The first frames left before the scripted pause in the middle of the first response.
  expect(endedAt - firstChunkAt!).toBeGreaterThanOrEqual(250);
});

describe('a failed run over Server-Sent Events', () => {
  const secret = 'invalid x-api-key sk-ant-api03-secret';
  const failedRun = async () => {
    const { client } = await scripted([apiError(401, { message: secret })]);
    const tools = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(new Timeline())] });
    return streamToolLoop({ client, model: MODEL, prompt: 'X1?', tools });
  };
  const doneFrame = async (body: NodeJS.ReadableStream) => {
    let text = '';
    for await (const chunk of body) text += String(chunk);
    const done = text.split('\n\n').find((frame) => frame.startsWith('event: done'))!;
    return JSON.parse(done.split('\n')[1].slice('data: '.length)) as Extract<ToolStreamEvent, { type: 'done' }>;
  };

  test('tells the client only that it failed, and gives the error itself to the logger', async () => {
    const logged: unknown[][] = [];
    const logger = { error: (...args: unknown[]) => logged.push(args), warn: () => undefined };
    const stream = await failedRun();

    const done = await doneFrame(toServerSentEvents(stream, { logger }));

    expect(done).toMatchObject({ stopReason: 'error', error: HIDDEN_ERROR_TEXT });
    expect(logged).toHaveLength(1);
    expect(String(logged[0][1])).toContain(secret);
    await expect(stream.result).rejects.toThrow(secret);
  });

  test('sends the message as it is with exposeErrors', async () => {
    const done = await doneFrame(toServerSentEvents(await failedRun(), { exposeErrors: true }));
    expect(done.error).toContain(secret);
  });
});
