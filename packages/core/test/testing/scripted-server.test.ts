import Anthropic from '@anthropic-ai/sdk';
import { apiError, startScriptedServer, text, toolUse, turn, type ScriptedServer } from '@toolwright/core/testing';

const MODEL = 'claude-haiku-5-5';
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(...turns: Parameters<typeof startScriptedServer>[0]['turns']) {
  server = await startScriptedServer({ turns });
  return { server, client: new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 1 }) };
}

/** For tests that close the server themselves to see what it reports. */
async function startUnmanaged(...turns: Parameters<typeof startScriptedServer>[0]['turns']) {
  const own = await startScriptedServer({ turns });
  return { server: own, client: new Anthropic({ baseURL: own.url, apiKey: 'test', maxRetries: 1 }) };
}

function post(url: string, body: unknown) {
  return fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

test('answers messages.create with the next turn, in the API response shape, and records the request', async () => {
  const { server, client } = await start({ ...turn('end_turn', text('Olá!')), usage: { input_tokens: 7, output_tokens: 3 } });

  const message = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'oi' }] });

  expect(message).toMatchObject({
    type: 'message',
    role: 'assistant',
    model: MODEL,
    content: [{ type: 'text', text: 'Olá!' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 7, output_tokens: 3 },
  });
  expect(server.requests).toEqual([
    expect.objectContaining({ index: 0, status: 200, body: expect.objectContaining({ messages: [{ role: 'user', content: 'oi' }] }) }),
  ]);
  expect(server.remaining).toBe(0);
});

test('a deliberately broken request gets the API 400 and uses no turn', async () => {
  const { server, client } = await start(turn('end_turn', text('não devia chegar aqui')));
  const broken = {
    model: MODEL,
    max_tokens: 64,
    tools: [{ name: 'buscar_pedido', input_schema: { type: 'object' as const } }],
    messages: [
      { role: 'user' as const, content: 'A-1001?' },
      { role: 'assistant' as const, content: [toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' })] },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'aqui está' }, { type: 'tool_result' as const, tool_use_id: 'toolu_01', content: '{}' }] },
    ],
  };

  const response = await post(server.url, broken);
  await expect(client.messages.create(broken)).rejects.toMatchObject({ status: 400 });

  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({
    type: 'error',
    error: { type: 'invalid_request_error', message: expect.stringContaining('messages.2: `tool_result` blocks must come first') },
  });
  expect(server.remaining).toBe(1);
  expect(server.requests.map((r) => r.status)).toEqual([400, 400]);
});

test('scripted errors carry the API error type and retry headers', async () => {
  const { server } = await start(apiError(429, { message: 'rate limit exceeded', retryAfterMs: 1500 }), apiError(529));

  const limited = await post(server.url, { model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'oi' }] });
  const overloaded = await post(server.url, { model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'oi' }] });

  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('2');
  expect(limited.headers.get('retry-after-ms')).toBe('1500');
  expect(await limited.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'rate limit exceeded' } });
  expect(overloaded.status).toBe(529);
  expect(await overloaded.json()).toMatchObject({ error: { type: 'overloaded_error' } });
});

test('a turn can answer according to the request', async () => {
  const { client } = await start((request) => turn('end_turn', text(`recebi ${request.body.messages.length} mensagens`)));

  const message = await client.messages.create({
    model: MODEL,
    max_tokens: 64,
    messages: [
      { role: 'user', content: 'oi' },
      { role: 'assistant', content: 'Olá' },
      { role: 'user', content: 'tudo bem?' },
    ],
  });

  expect(message.content).toEqual([expect.objectContaining({ text: 'recebi 3 mensagens' })]);
});

test('a request after the script ran out fails at once, and close() reports it', async () => {
  const { server, client } = await startUnmanaged(turn('end_turn', text('só uma')));
  const request = { model: MODEL, max_tokens: 8, messages: [{ role: 'user' as const, content: 'oi' }] };

  await client.messages.create(request);
  await expect(client.messages.create(request)).rejects.toMatchObject({ status: 500 });

  expect(server.requests.map((r) => r.status)).toEqual([200, 500]);
  await expect(server.close()).rejects.toThrow("request 1 arrived after the script's 1 turns were used");
});

test('a turn function that throws fails loudly', async () => {
  const { server, client } = await startUnmanaged(() => {
    throw new Error('roteiro quebrado');
  });

  await expect(client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'oi' }] })).rejects.toMatchObject({ status: 500 });
  await expect(server.close()).rejects.toThrow('turn 0 threw: roteiro quebrado');
});

test('only POST /v1/messages is served', async () => {
  const { server } = await startUnmanaged();

  const response = await fetch(`${server.url}/v1/complete`, { method: 'POST', body: '{}' });

  expect(response.status).toBe(500);
  await expect(server.close()).rejects.toThrow('no route for POST /v1/complete');
});
