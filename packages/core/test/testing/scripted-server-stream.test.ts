import Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { startScriptedServer, text, toolUse, turn, type ScriptedReply, type ScriptedServer } from '@toolwright/core/testing';

const MODEL = 'claude-haiku-5-5';
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(...turns: ScriptedReply[]) {
  server = await startScriptedServer({ turns });
  return { server, client: new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 }) };
}

const ask = { model: MODEL, max_tokens: 64, messages: [{ role: 'user' as const, content: 'X1?' }] };
const reply = (stream: ScriptedReply['stream'] = {}): ScriptedReply => ({
  ...turn('tool_use', text('Vou ver o estoque.'), toolUse('toolu_01', 'ler_estoque', { sku: 'X1', quantos: 2 })),
  usage: { input_tokens: 12, output_tokens: 34 },
  stream,
});

test('stream: true gets the API events through the real SDK, deltas chunked as scripted', async () => {
  const { client } = await start(reply({ chunkChars: 6 }));

  const events: RawMessageStreamEvent[] = [];
  for await (const event of await client.messages.create({ ...ask, stream: true })) events.push(event);

  expect(events.map((e) => (e.type === 'content_block_delta' ? `${e.type}:${e.delta.type}` : e.type))).toEqual([
    'message_start',
    'content_block_start',
    'content_block_delta:text_delta',
    'content_block_delta:text_delta',
    'content_block_delta:text_delta',
    'content_block_stop',
    'content_block_start',
    ...Array(4).fill('content_block_delta:input_json_delta'),
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
  expect(events[0]).toMatchObject({ message: { content: [], stop_reason: null, usage: { input_tokens: 12 } } });
  expect(events.at(-2)).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 34 } });
});

test("the SDK's own MessageStream assembles the same message the JSON answer holds", async () => {
  const { client } = await start(reply({ chunkChars: 3 }), reply());

  const streamed = await client.messages.stream(ask).finalMessage();
  const whole = await client.messages.create(ask);

  expect(streamed.content).toEqual(whole.content);
  expect(streamed).toMatchObject({ stop_reason: whole.stop_reason, usage: { input_tokens: 12, output_tokens: 34 } });
});

test('the raw body is text/event-stream with a ping, and per-event delays are kept', async () => {
  const { server } = await start(reply({ delayMs: 20 }));

  const started = Date.now();
  const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...ask, stream: true }) });
  const body = await response.text();

  expect(response.headers.get('content-type')).toBe('text/event-stream');
  expect(body).toContain('event: ping\ndata: {"type":"ping"}\n\n');
  expect(body.startsWith('event: message_start\ndata: {')).toBe(true);
  const frames = body.trim().split('\n\n');
  expect(frames).toHaveLength(10);
  // Ten events, each 20 ms after the one before.
  expect(Date.now() - started).toBeGreaterThanOrEqual(10 * 20 * 0.9);
});

test('a scripted mid-stream error event reaches the SDK as an APIError during the iteration', async () => {
  const { client } = await start(reply({ errorAt: 4, error: { type: 'overloaded_error', message: 'Overloaded' } }));

  const seen: string[] = [];
  const reading = (async () => {
    for await (const event of await client.messages.create({ ...ask, stream: true })) seen.push(event.type);
  })();

  await expect(reading).rejects.toMatchObject({ message: expect.stringContaining('Overloaded'), error: { error: { type: 'overloaded_error' } } });
  expect(seen).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
});

test('a dropped connection ends the stream without message_stop', async () => {
  const { client } = await start(reply({ dropAt: 6 }));

  const seen: string[] = [];
  await (async () => {
    for await (const event of await client.messages.create({ ...ask, stream: true })) seen.push(event.type);
  })().catch(() => undefined);

  expect(seen).not.toContain('message_stop');
  expect(seen.length).toBeLessThanOrEqual(5);
});

test('the protocol checks still answer 400 (JSON, not a stream) to a broken streaming request', async () => {
  const { server, client } = await start(reply());

  const broken = client.messages.create({
    ...ask,
    stream: true,
    tools: [{ name: 'ler_estoque', input_schema: { type: 'object' } }],
    messages: [
      { role: 'user', content: 'X1?' },
      { role: 'assistant', content: [toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })] },
    ],
  });

  await expect(broken).rejects.toMatchObject({ status: 400, message: expect.stringContaining('without `tool_result` blocks immediately after: toolu_01') });
  expect(server.remaining).toBe(1);
});
