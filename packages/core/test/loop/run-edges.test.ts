import 'reflect-metadata';
import type { ContentBlock, Message, MessageParam, RawMessageStreamEvent, StopReason } from '@anthropic-ai/sdk/resources/messages';
import { InMemoryRunStore, ToolContainer, runToolLoop, streamToolLoop, type MessagesClient, type ToolLoopEvent, type ToolLoopOptions, type ToolLoopResult, type ToolStreamEvent } from '@toolwright/core';
import { scriptedStreamEvents, serverToolUse, text, toolUse, webSearchResult } from '@toolwright/core/testing';
import { ShopTools, Timeline, shopManifest, sleep } from './fixtures/shop-tools';
import { MODEL } from './scripted-client';

// What the loop sends, emits and returns at its edges: the options it checks before the first
// request, the request it builds, the events and results of every way a turn can end. A client
// written here (no HTTP) hands the loop exactly the responses each case needs.

const loops = [
  ['runToolLoop', (options: ToolLoopOptions<unknown>) => runToolLoop(options)],
  ['streamToolLoop', (options: ToolLoopOptions<unknown>) => streamToolLoop(options).result],
] as const;

const tools = () => new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(new Timeline(), sleep(0))] });

function message(stopReason: StopReason | null, ...content: ContentBlock[]): Message {
  const usage = { input_tokens: 5, output_tokens: 5 };
  return { id: 'msg_edge', type: 'message', role: 'assistant', model: MODEL, content, stop_reason: stopReason, stop_sequence: null, usage } as Message;
}

type Reply = Message | ((signal: AbortSignal) => AsyncIterable<RawMessageStreamEvent>);

interface Sent {
  body: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/** A client answering with `replies` in order, whole or as stream events; it keeps each request as the loop handed it. */
function client(replies: readonly Reply[], sent: Sent[] = []): MessagesClient {
  let next = 0;
  return {
    messages: {
      create: async (body: Record<string, unknown>, options?: { signal?: AbortSignal }) => {
        sent.push({ body, signal: options?.signal });
        const reply = replies[next++];
        if (typeof reply === 'function') return reply(options!.signal!);
        if (!body.stream) return reply;
        return (async function* () {
          yield* scriptedStreamEvents(reply) as RawMessageStreamEvent[];
        })();
      },
    },
  } as unknown as MessagesClient;
}

/** The stream's events, and how its run ended. */
async function streamed(options: ToolLoopOptions<unknown>): Promise<{ events: ToolStreamEvent[]; outcome: ToolLoopResult | Error }> {
  const stream = streamToolLoop(options);
  const events: ToolStreamEvent[] = [];
  const outcome = stream.result.catch((error: Error) => error);
  for await (const event of stream) events.push(event);
  return { events, outcome: await outcome };
}

const turnEvents = (events: readonly ToolStreamEvent[]) => events.filter((e) => e.type === 'turn_start' || e.type === 'turn_end').map((e) => `${e.type}:${(e as { turn: number }).turn}`);

describe.each(loops)('%s checks its options before the first request', (name, loop) => {
  const refused = async (options: Partial<ToolLoopOptions<unknown>>) => {
    const sent: Sent[] = [];
    const error = await loop({ client: client([], sent), model: MODEL, prompt: 'X1?', tools: tools(), ...options }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(sent).toHaveLength(0);
    return error?.message;
  };

  test.each([
    ['maxTurns', { maxTurns: 0 }],
    ['maxTokens', { maxTokens: 1.5 }],
    ['budget.outputTokens', { budget: { outputTokens: -1 } }],
    ['budget.ms', { budget: { ms: 0 } }],
  ])('%s, named in the refusal', async (option, options) => {
    expect(await refused(options)).toMatch(new RegExp(`^${name}: ${option.replace('.', '\\.')} must be a positive integer, got `));
  });

  test.each([
    ['', 'owner must be a non-empty string (the id of whoever starts or resumes the run), got "".'],
    [7, 'owner must be a non-empty string (the id of whoever starts or resumes the run), got 7.'],
    ['ana\u0000', 'owner must be a non-empty string (the id of whoever starts or resumes the run) without NUL or lone surrogates; it holds a NUL character (U+0000), got "ana\\u0000".'],
  ])('an owner of %j', async (owner, problem) => {
    expect(await refused({ owner: owner as string, store: new InMemoryRunStore() })).toBe(`${name}: ${problem}`);
  });

  test('a container that asks for approval, without a store to pause in', async () => {
    const approving = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(new Timeline(), sleep(0))], approval: 'writes' });
    expect(await refused({ tools: approving })).toBe(
      `${name}: the container asks for approval (approval: 'writes' or a tool's approval option), so the run must be able to pause: ` +
        'pass a `store` (InMemoryRunStore, or PostgresRunStore from @toolwright/pg-store).',
    );
  });

  test('no messages and no prompt', async () => {
    expect(await refused({ prompt: undefined, messages: [] })).toBe(`${name}: give \`messages\` or a \`prompt\`.`);
  });

  test('a history breaking the protocol twice: each break on its own line', async () => {
    const history: MessageParam[] = [
      { role: 'user', content: 'X1?' },
      { role: 'assistant', content: [toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })] },
      { role: 'user', content: 'e o X2?' },
      { role: 'assistant', content: [toolUse('toolu_02', 'ler_estoque', { sku: 'X2' })] },
      { role: 'user', content: 'e o X3?' },
    ];
    const lines = (await refused({ prompt: undefined, messages: history }))!.split('\n');
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^messages\.1: .*toolu_01/), expect.stringMatching(/^messages\.3: .*toolu_02/)]);
  });

  test.each(['halt', 'continue'] as const)('onWriteFailure %s is taken', async (onWriteFailure) => {
    const run = await loop({ client: client([message('end_turn', text('Ok.'))]), model: MODEL, prompt: 'X1?', tools: tools(), context: { onWriteFailure } });
    expect(run).toMatchObject({ stopReason: 'end_turn', text: 'Ok.' });
  });
});

describe.each(loops)('%s sends', (_name, loop) => {
  test('only the fields it was given: no system, tool_choice or container when none was', async () => {
    const sent: Sent[] = [];
    await loop({ client: client([message('end_turn', text('Ok.'))], sent), model: MODEL, prompt: 'X1?', tools: tools() });
    expect(Object.keys(sent[0].body).filter((key) => key !== 'stream').sort()).toEqual(['max_tokens', 'messages', 'model', 'tools']);
  });

  test('the system prompt, the tool choice and a container given as an object, as given', async () => {
    const sent: Sent[] = [];
    const container = { id: 'container_01', skills: [] };
    await loop({
      client: client([message('end_turn', text('Ok.'))], sent),
      model: MODEL,
      prompt: 'X1?',
      tools: tools(),
      system: 'Responda em português.',
      toolChoice: { type: 'any' },
      params: { container } as never,
    });
    expect(sent[0].body).toMatchObject({ system: 'Responda em português.', tool_choice: { type: 'any' }, container });
  });

  test('the run\'s signal with each request, so aborting the run cancels the request in flight', async () => {
    const sent: Sent[] = [];
    const controller = new AbortController();
    const never = (signal: AbortSignal) => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<RawMessageStreamEvent>>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))) }),
    });
    let requested!: () => void;
    const inFlight = new Promise<void>((resolve) => (requested = resolve));
    const hanging: MessagesClient = {
      messages: {
        create: (body: Record<string, unknown>, options?: { signal?: AbortSignal }) => {
          sent.push({ body, signal: options?.signal });
          requested();
          return body.stream ? Promise.resolve(never(options!.signal!)) : new Promise((_resolve, reject) => options!.signal!.addEventListener('abort', () => reject(options!.signal!.reason)));
        },
      },
    } as unknown as MessagesClient;
    const events: ToolLoopEvent[] = [];
    const run = loop({ client: hanging, model: MODEL, prompt: 'X1?', tools: tools(), signal: controller.signal, onEvent: (event) => events.push(event) });
    await inFlight;
    expect(sent[0].signal?.aborted).toBe(false);
    controller.abort();
    expect(sent[0].signal?.aborted).toBe(true);
    expect(await run).toMatchObject({ stopReason: 'aborted' });
    // No response came, so no call of it is left out.
    expect(events.find((e) => e.type === 'limit')).toMatchObject({ limit: 'aborted', notExecuted: [] });
  });
});

describe.each(loops)('%s returns', (_name, loop) => {
  test('a limit reached before a request with nothing left out', async () => {
    const events: ToolLoopEvent[] = [];
    // A paused turn spends the whole output budget (5 tokens): the next request is never sent.
    const replies = [message('pause_turn', text('Pesquisando.'))];
    const run = await loop({ client: client(replies), model: MODEL, prompt: 'X1?', tools: tools(), budget: { outputTokens: 5 }, onEvent: (event) => events.push(event) });
    expect(run).toMatchObject({ stopReason: 'output_tokens_budget' });
    expect(events.find((e) => e.type === 'limit')).toMatchObject({ notExecuted: [] });
  });

  test('as its text only the last assistant turn\'s text blocks, joined as they are', async () => {
    const history: MessageParam[] = [
      { role: 'user', content: 'Olá' },
      { role: 'assistant', content: 'Olá! ' },
      { role: 'user', content: 'Tem X1?' },
    ];
    const run = await loop({ client: client([message('end_turn', text('Há '), toolUse('toolu_09', 'ler_estoque', { sku: 'X1' }), text('3.'))]), model: MODEL, messages: history, tools: tools() });
    expect(run.text).toBe('Há 3.');
  });

  test('an error when the model repeats a tool_use id of the history it was given', async () => {
    const history: MessageParam[] = [
      { role: 'user', content: 'X1?' },
      { role: 'assistant', content: [toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '3' }, { type: 'text', text: 'e o X2?' }] },
    ];
    const replies = [message('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X2' }))];
    await expect(loop({ client: client(replies), model: MODEL, messages: history, tools: tools() })).rejects.toThrow(
      'it repeats the tool_use id toolu_01, already used earlier in the conversation; ids must be unique',
    );
  });

  // A server tool's call (web search, code execution) shares the id space of tool_use blocks: the
  // API refuses a conversation that repeats either, so the loop refuses the response at once.
  test('an error when the model repeats a server_tool_use id of the history it was given', async () => {
    const search = serverToolUse('srvtoolu_01', 'web_search', { query: 'frete' });
    const history: MessageParam[] = [
      { role: 'user', content: 'Frete?' },
      { role: 'assistant', content: [search, webSearchResult('srvtoolu_01', [{ url: 'https://loja.example/frete', title: 'Frete' }]), text('Grátis.')] },
      { role: 'user', content: 'E para o Norte?' },
    ];
    const replies = [message('end_turn', serverToolUse('srvtoolu_01', 'web_search', { query: 'frete norte' }), text('Também.'))];
    await expect(loop({ client: client(replies), model: MODEL, messages: history, tools: tools() })).rejects.toThrow(
      'it repeats the tool_use id srvtoolu_01, already used earlier in the conversation; ids must be unique',
    );
  });

  test('an error when one response repeats a server_tool_use id within itself', async () => {
    const replies = [message('end_turn', serverToolUse('srvtoolu_02', 'web_search', { query: 'frete' }), serverToolUse('srvtoolu_02', 'web_search', { query: 'prazo' }), text('Ok.'))];
    await expect(loop({ client: client(replies), model: MODEL, prompt: 'Frete?', tools: tools() })).rejects.toThrow('it repeats the tool_use id srvtoolu_02; ids must be unique');
  });
});

describe('the loop events of a response', () => {
  test('a complete response is reported with how long it took; one that never completed is not', async () => {
    const events: ToolLoopEvent[] = [];
    const broken = () =>
      (async function* () {
        yield { type: 'message_start', message: message(null) } as RawMessageStreamEvent;
        throw new Error('socket hang up');
      })();
    const started = Date.now();
    const run = streamToolLoop({
      client: client([message('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' })), broken]),
      model: MODEL,
      prompt: 'X1?',
      tools: tools(),
      onEvent: (event) => events.push(event),
    });
    await expect(run.result).rejects.toThrow('response 2 was interrupted: socket hang up');
    const responses = events.filter((e) => e.type === 'response');
    expect(responses).toEqual([expect.objectContaining({ turn: 1, stopReason: 'tool_use' })]);
    const { durationMs } = responses[0] as { durationMs: number };
    expect(durationMs).toBeGreaterThanOrEqual(0);
    expect(durationMs).toBeLessThanOrEqual(Date.now() - started);
  });
});

describe('streamToolLoop ends every turn it starts, however the turn ends', () => {
  const read = toolUse('toolu_01', 'ler_estoque', { sku: 'X1' });
  test.each<[string, Reply[], string[]]>([
    ['pause_turn, then end_turn', [message('pause_turn', text('Pesquisando.')), message('end_turn', text('Ok.'))], ['turn_start:1', 'turn_end:1', 'turn_start:2', 'turn_end:2']],
    ['max_tokens', [message('max_tokens', text('Há'))], ['turn_start:1', 'turn_end:1']],
    ['no stop_reason', [message(null, text('Há'))], ['turn_start:1', 'turn_end:1']],
    ['tool_use without a tool_use block', [message('tool_use', text('Vou ver.'))], ['turn_start:1', 'turn_end:1']],
    [
      'a stream cut off after a tool_use',
      [
        () =>
          (async function* () {
            for (const event of scriptedStreamEvents(message('tool_use', read)).slice(0, -2)) yield event as RawMessageStreamEvent;
            throw new Error('socket hang up');
          })(),
      ],
      ['turn_start:1', 'turn_end:1'],
    ],
  ])('%s', async (_what, replies, expected) => {
    const { events } = await streamed({ client: client(replies), model: MODEL, prompt: 'X1?', tools: tools() });
    expect(turnEvents(events)).toEqual(expected);
  });

  test('aborted while the response streams', async () => {
    const controller = new AbortController();
    const aborting = (signal: AbortSignal) =>
      (async function* () {
        const [start, blockStart] = scriptedStreamEvents(message('tool_use', read));
        yield start as RawMessageStreamEvent;
        yield blockStart as RawMessageStreamEvent;
        controller.abort();
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      })();
    const { events, outcome } = await streamed({ client: client([aborting]), model: MODEL, prompt: 'X1?', tools: tools(), signal: controller.signal });
    expect(outcome).toMatchObject({ stopReason: 'aborted' });
    expect(turnEvents(events)).toEqual(['turn_start:1', 'turn_end:1']);
  });
});
