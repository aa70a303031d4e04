import 'reflect-metadata';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { IsString } from 'class-validator';
import { Ctx, InMemoryRunStore, Param, RunStoreError, Tool, ToolContainer, ToolLoopError, defineToolManifest, resumeToolLoop, runToolLoop, streamResumeToolLoop, streamToolLoop, type ToolContext, type ToolStreamEvent } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { failOnce, faultyStore, type Fault } from '../approval/fixtures/faulty-store';
import { replayClient } from '../approval/fixtures/refunds';
import { runClock } from './fixtures/run-clock';
import { ShopTools, Timeline, shopManifest, sleep, type Wait } from './fixtures/shop-tools';
import { MODEL, closeServers, expectValidTranscript, resultsAt, scripted } from './scripted-client';

// How the calls of one assistant message are scheduled and answered (loop/turn-calls.ts), seen
// from the loop: what runs, with which signal, in which segments, and what the stream reports.

afterEach(closeServers);

function shop(wait?: Wait, fails?: (toolUseId: string) => boolean) {
  const timeline = new Timeline();
  return { timeline, tools: new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, wait, fails)] }) };
}

async function collect(stream: AsyncIterable<ToolStreamEvent>): Promise<ToolStreamEvent[]> {
  const events: ToolStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('onWriteFailure', () => {
  test("context.onWriteFailure 'continue': the write after a failed write still runs", async () => {
    const { timeline, tools } = shop(undefined, (id) => id === 'toolu_01');
    const { client } = await scripted([
      turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }), toolUse('toolu_02', 'reservar', { sku: 'X2' })),
      turn('end_turn', text('Uma reservada.')),
    ]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Reserve X1 e X2.', tools, context: { onWriteFailure: 'continue' } });

    expect(timeline.find('write_failed', 'toolu_01')).toBeDefined();
    expect(timeline.find('write_end', 'toolu_02')).toBeDefined();
    expect(resultsAt(run.messages, 2).map((r) => r.is_error ?? false)).toEqual([true, false]);
    expectValidTranscript(run.messages);
  });

  test("the container's default 'continue' holds in the loop too", async () => {
    const timeline = new Timeline();
    const tools = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, undefined, (id) => id === 'toolu_01')], defaults: { onWriteFailure: 'continue' } });
    const { client } = await scripted([
      turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }), toolUse('toolu_02', 'reservar', { sku: 'X2' })),
      turn('end_turn', text('Uma reservada.')),
    ]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Reserve X1 e X2.', tools });

    expect(timeline.find('write_end', 'toolu_02')).toBeDefined();
    expect(resultsAt(run.messages, 2).map((r) => r.is_error ?? false)).toEqual([true, false]);
  });
});

describe('the run signal', () => {
  test('aborting the run while a committed write runs cancels that write, which then counts as failed: the read after it does not start', async () => {
    const controller = new AbortController();
    // The write, once started, is where the run gets aborted; it then waits for its signal (or 3 s).
    const wait: Wait = (id, signal) => {
      if (id === 'toolu_01') setImmediate(() => controller.abort());
      return sleep(3_000)(id, signal);
    };
    const { timeline, tools } = shop(wait);
    const { client } = await scripted([turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }), toolUse('toolu_02', 'ler_estoque', { sku: 'X1' }))]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools, signal: controller.signal });

    expect(run.stopReason).toBe('aborted');
    expect(timeline.find('write_aborted', 'toolu_01')).toBeDefined();
    expect(timeline.find('read_start', 'toolu_02')).toBeUndefined();
    expect(resultsAt(run.messages, 2).map((r) => r.content)).toEqual([
      'Cancelled while running; whether this write took effect is unknown.',
      'Not executed: an earlier call in this batch (reservar, toolu_01) failed.',
    ]);
    expectValidTranscript(run.messages);
  });

  test('a run of many turns keeps few abort listeners on any signal (Node warns past 10: MaxListenersExceededWarning)', async () => {
    // Node reports that warning on the real process, which a test cannot listen to: count instead.
    const live = new Map<EventTarget, number>();
    let most = 0;
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    const added = jest.spyOn(EventTarget.prototype, 'addEventListener').mockImplementation(function (this: EventTarget, type, listener, options) {
      if (type === 'abort') {
        live.set(this, (live.get(this) ?? 0) + 1);
        most = Math.max(most, live.get(this)!);
      }
      return add.call(this, type, listener, options);
    });
    const removed = jest.spyOn(EventTarget.prototype, 'removeEventListener').mockImplementation(function (this: EventTarget, type, listener, options) {
      if (type === 'abort') live.set(this, (live.get(this) ?? 1) - 1);
      return remove.call(this, type, listener, options);
    });
    try {
      const { client } = await scripted([
        ...Array.from({ length: 14 }, (_, i) => turn('tool_use', toolUse(`toolu_${i}`, 'ler_estoque', { sku: `X${i}` }))),
        turn('end_turn', text('Pronto.')),
      ]);
      const run = await runToolLoop({ client, model: MODEL, prompt: 'Estoque de tudo.', tools: shop().tools, maxTurns: 20, signal: new AbortController().signal });
      expect(run).toMatchObject({ stopReason: 'end_turn', turns: 15 });
    } finally {
      added.mockRestore();
      removed.mockRestore();
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(10);
  });
});

describe('segments after the first write', () => {
  test('the reads after a write run together, as one segment, once the write is done', async () => {
    // Each read waits for the other to start (or 2 s): run one after the other, the first ends before the second starts.
    const started = new Set<string>();
    let bothStarted!: () => void;
    const both = new Promise<void>((resolve) => (bothStarted = resolve));
    const wait: Wait = (id) => {
      if (id === 'toolu_01') return Promise.resolve();
      started.add(id);
      if (started.size === 2) bothStarted();
      return Promise.race([both, new Promise<void>((resolve) => setTimeout(resolve, 2_000))]);
    };
    const { timeline, tools } = shop(wait);
    const { client } = await scripted([
      turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }), toolUse('toolu_02', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_03', 'ler_preco', { sku: 'X1' })),
      turn('end_turn', text('Pronto.')),
    ]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools });

    const seq = (what: string, id: string) => timeline.find(what, id)!.seq;
    expect(seq('write_end', 'toolu_01')).toBeLessThan(seq('read_start', 'toolu_02'));
    expect(seq('read_start', 'toolu_03')).toBeLessThan(seq('read_end', 'toolu_02'));
    expect(resultsAt(run.messages, 2).map((r) => r.is_error ?? false)).toEqual([false, false, false]);
  });
});

describe('tool_end', () => {
  test("says each call's outcome, isError, and how long it ran, within the run", async () => {
    // toolu_01 takes 20 ms; toolu_02's input is invalid; toolu_03 is a write that fails.
    const { tools } = shop((id, signal) => (id === 'toolu_01' ? sleep(20)(id, signal) : Promise.resolve()), (id) => id === 'toolu_03');
    const { client } = await scripted([
      turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'ler_preco', { sku: 5 }), toolUse('toolu_03', 'reservar', { sku: 'X1' })),
      turn('end_turn', text('Não deu.')),
    ]);

    const before = Date.now();
    const events = await collect(streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools }));
    const elapsed = Date.now() - before;

    const ends = events.flatMap((e) => (e.type === 'tool_end' ? [e] : [])).sort((a, b) => a.toolUseId.localeCompare(b.toolUseId));
    expect(ends.map((e) => [e.toolUseId, e.outcome, e.isError])).toEqual([
      ['toolu_01', 'ok', false],
      ['toolu_02', 'invalid_input', true],
      ['toolu_03', 'tool_error', true],
    ]);
    expect(ends[0].durationMs).toBeGreaterThan(0);
    for (const end of ends) {
      expect(end.durationMs).toBeGreaterThanOrEqual(0);
      expect(end.durationMs).toBeLessThanOrEqual(elapsed);
    }
  });

  test("a read of a segment that the run's abort keeps from starting ends 'cancelled'", async () => {
    const controller = new AbortController();
    const wait: Wait = (id, signal) => {
      if (id !== 'toolu_02') return Promise.resolve();
      setImmediate(() => controller.abort());
      return sleep(3_000)(id, signal);
    };
    const { timeline, tools } = shop(wait);
    const { client } = await scripted([
      turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }), toolUse('toolu_02', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_03', 'ler_preco', { sku: 'X1' })),
    ]);

    const events = await collect(streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools, signal: controller.signal, context: { maxConcurrency: 1 } }));

    expect(timeline.find('read_start', 'toolu_03')).toBeUndefined();
    const ends = events.flatMap((e) => (e.type === 'tool_end' ? [[e.toolUseId, e.outcome]] : []));
    expect(ends).toEqual([
      ['toolu_01', 'ok'],
      ['toolu_02', 'cancelled'],
      ['toolu_03', 'cancelled'],
    ]);
  });
});

describe('a read refused for its input between two writes', () => {
  test('is no failed write: the write after it runs', async () => {
    const { timeline, tools } = shop();
    const { client } = await scripted([
      turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }), toolUse('toolu_02', 'ler_estoque', { sku: 'X\u0000' }), toolUse('toolu_03', 'reservar', { sku: 'X2' })),
      turn('end_turn', text('Pronto.')),
    ]);

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Reserve X1 e X2.', tools });

    expect(timeline.find('write_end', 'toolu_03')).toBeDefined();
    expect(resultsAt(run.messages, 2).map((r) => r.is_error ?? false)).toEqual([false, true, false]);
  });
});

describe('a call refused for its input, under approval', () => {
  test('is answered with the refusal and never put to a person: the run does not pause on it', async () => {
    const timeline = new Timeline();
    const tools = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline)], approval: 'writes' });
    const client = replayClient((messages) =>
      messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('Não deu.')) : turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X\u0000' })),
    );

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Reserve.', tools, store: new InMemoryRunStore() });

    expect(run.stopReason).toBe('end_turn');
    expect(run.pending).toBeUndefined();
    expect(timeline.find('write_start')).toBeUndefined();
    expect(resultsAt(run.messages, 2)).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_01', is_error: true, content: expect.stringMatching(/^Not executed: the input holds a NUL character/) }]);
  });
});

class Ledger {
  ran: string[] = [];

  /** A read whose approval rule throws for the account "broken" (and needs no person otherwise). */
  @Tool({
    name: 'balance',
    effect: 'read',
    approval: (_ctx: ToolContext, input: { account: string }) => {
      if (input.account === 'broken') throw new Error('approval rules unavailable');
      return false;
    },
  })
  async balance(@Param() account: string, @Ctx() ctx: ToolContext) {
    this.ran.push(ctx.toolUseId);
    return `balance of ${account}`;
  }
}

class AccountInput {
  @IsString()
  account!: string;
}

const ledgerManifest = defineToolManifest([
  {
    provider: Ledger,
    method: 'balance',
    definition: {
      name: 'balance',
      description: 'The balance of an account.',
      input_schema: { type: 'object' as const, properties: { account: { type: 'string' } }, required: ['account'], additionalProperties: false },
    },
    effect: 'read' as const,
    inputClass: AccountInput,
    parameters: [{ kind: 'param' as const, property: 'account' }, { kind: 'ctx' as const }],
  },
]);

describe('a read whose approval rule throws', () => {
  test.each([
    ['runToolLoop', runToolLoop],
    ['streamToolLoop', (options: Parameters<typeof streamToolLoop>[0]) => streamToolLoop(options).result],
  ] as const)('%s: never runs, early or late; it is answered as the failure it is, and the read after it runs', async (_name, loop) => {
    const ledger = new Ledger();
    const logged: string[] = [];
    const tools = new ToolContainer({ manifest: ledgerManifest, providers: [ledger], logger: { error: (message) => logged.push(message), warn: (message) => logged.push(message) } });
    const client = replayClient((messages) =>
      messages.some((m) => m.role === 'assistant')
        ? turn('end_turn', text('done'))
        : turn('tool_use', toolUse('toolu_broken', 'balance', { account: 'broken' }), toolUse('toolu_ok', 'balance', { account: 'main' })),
    );

    const run = await loop({ client, model: MODEL, prompt: 'Balances?', tools, store: new InMemoryRunStore() });

    expect(run.stopReason).toBe('end_turn');
    expect(ledger.ran).toEqual(['toolu_ok']);
    const [broken, ok] = resultsAt(run.messages, 2);
    expect(broken).toMatchObject({ tool_use_id: 'toolu_broken', is_error: true });
    expect(ok).toMatchObject({ tool_use_id: 'toolu_ok', content: 'balance of main' });
    expect(logged).toEqual([expect.stringContaining('checking whether balance (toolu_broken) needs approval failed')]);
  });
});

describe('a limit reached while calls of the turn are under way', () => {
  test('a read left waiting for a slot is answered "not executed" and never runs', async () => {
    const clock = runClock();
    try {
      // The first read takes a minute of the run's clock: the budget runs out while the second waits for the only slot.
      const { timeline, tools } = shop(async (id) => {
        if (id === 'toolu_01') clock.advance(60_000);
      });
      const { client } = await scripted([turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'ler_preco', { sku: 'X1' }))]);

      const run = await runToolLoop({ client, model: MODEL, prompt: 'X1?', tools, budget: { ms: 30_000 }, context: { maxConcurrency: 1 } });

      expect(run.stopReason).toBe('time_budget');
      expect(timeline.find('read_end', 'toolu_01')).toBeDefined();
      expect(timeline.find('read_start', 'toolu_02')).toBeUndefined();
      const [first, second] = resultsAt(run.messages, 2);
      expect(first.is_error).toBeUndefined();
      expect(second).toMatchObject({ tool_use_id: 'toolu_02', is_error: true, content: expect.stringMatching(/^Not executed: the time budget/) });
      expectValidTranscript(run.messages);
    } finally {
      clock.restore();
    }
  });

  test('a read that started early finishes and keeps its result when the limit is found at the end of the message', async () => {
    const clock = runClock();
    try {
      const { timeline, tools } = shop(sleep(100));
      const client = replayClient(() => turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), text('Vejo o estoque.')));

      const run = await streamToolLoop({
        client,
        model: MODEL,
        prompt: 'X1?',
        tools,
        budget: { ms: 30_000 },
        onEvent: (event) => {
          if (event.type === 'response') clock.advance(60_000);
        },
      }).result;

      expect(run.stopReason).toBe('time_budget');
      expect(timeline.find('read_end', 'toolu_01')).toBeDefined();
      expect(resultsAt(run.messages, 2)).toEqual([expect.objectContaining({ tool_use_id: 'toolu_01', content: JSON.stringify({ sku: 'X1', quantidade: 3 }) })]);
      expectValidTranscript(run.messages);
    } finally {
      clock.restore();
    }
  });
});

describe('a message cut off while reads are under way', () => {
  // Events: message_start, ping, then per block start, delta, stop: the text block starts at 5.
  const cut = { errorAt: 7, delayMs: (_event: unknown, i: number) => (i === 7 ? 50 : 0) };

  test('the one read running is cancelled, not left to finish', async () => {
    const { timeline, tools } = shop(sleep(3_000));
    const { client } = await scripted([{ ...turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), text('Enquanto isso, mais texto.')), stream: cut }]);

    const error = (await streamToolLoop({ client, model: MODEL, prompt: 'X1?', tools }).result.catch((e: unknown) => e)) as ToolLoopError;

    expect(error).toBeInstanceOf(ToolLoopError);
    expect(timeline.find('read_aborted', 'toolu_01')).toBeDefined();
    expect(resultsAt(error.messages, 2).map((r) => r.content)).toEqual(['Cancelled.']);
  });

  test('a read still queued for a slot is answered, not waited for', async () => {
    const { timeline, tools } = shop(sleep(3_000));
    const { client } = await scripted([
      { ...turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'ler_preco', { sku: 'X1' }), text('Mais texto.')), stream: { errorAt: 10, delayMs: (_e: unknown, i: number) => (i === 10 ? 50 : 0) } },
    ]);

    const error = (await streamToolLoop({ client, model: MODEL, prompt: 'X1?', tools, context: { maxConcurrency: 1 } }).result.catch((e: unknown) => e)) as ToolLoopError;

    expect(error).toBeInstanceOf(ToolLoopError);
    expect(timeline.find('read_start', 'toolu_02')).toBeUndefined();
    expect(resultsAt(error.messages, 2).map((r) => r.content)).toEqual(['Cancelled.', expect.stringContaining('interrupted')]);
    expectValidTranscript(error.messages);
  }, 15_000);
});

/** An in-memory store that marks on `timeline` each result it journals. */
function markingStore(timeline: Timeline, fault?: Fault) {
  const inner = new InMemoryRunStore();
  const recordResult = inner.recordResult.bind(inner);
  inner.recordResult = async (runId, result) => {
    const recorded = await recordResult(runId, result);
    timeline.mark('journaled', result.tool_use_id);
    return recorded;
  };
  return fault ? faultyStore(inner, fault) : inner;
}

describe('a stored run', () => {
  test('journals each read of a segment as it completes, not when the slowest ends', async () => {
    const timeline = new Timeline();
    // toolu_03 waits until toolu_02's result is journaled (or 2 s).
    const wait: Wait = async (id) => {
      if (id !== 'toolu_03') return;
      for (let i = 0; i < 200 && !timeline.find('journaled', 'toolu_02'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const tools = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, wait)] });
    const client = replayClient((messages) =>
      messages.some((m) => m.role === 'assistant')
        ? turn('end_turn', text('Pronto.'))
        : turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }), toolUse('toolu_02', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_03', 'ler_preco', { sku: 'X1' })),
    );

    const run = await runToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools, store: markingStore(timeline) });

    expect(run.stopReason).toBe('end_turn');
    expect(timeline.find('journaled', 'toolu_02')!.seq).toBeLessThan(timeline.find('read_end', 'toolu_03')!.seq);
    expect(resultsAt(run.messages, 2).map((r) => r.is_error ?? false)).toEqual([false, false, false]);
  });

  test('keeps the reads of such a segment to maxConcurrency', async () => {
    const timeline = new Timeline();
    const tools = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, sleep(30))] });
    const client = replayClient((messages) =>
      messages.some((m) => m.role === 'assistant')
        ? turn('end_turn', text('Pronto.'))
        : turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }), toolUse('toolu_02', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_03', 'ler_preco', { sku: 'X1' })),
    );

    await runToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools, store: new InMemoryRunStore(), context: { maxConcurrency: 1 } });

    const reads = timeline.marks.filter((m) => m.what.startsWith('read_')).map((m) => `${m.what} ${m.id}`);
    expect(reads).toEqual(['read_start toolu_02', 'read_end toolu_02', 'read_start toolu_03', 'read_end toolu_03']);
  });

  test('a store failure while a read runs: the run rejects once that read is done, and the read queued behind it never starts', async () => {
    const timeline = new Timeline();
    const tools = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, sleep(100))] });
    const client = replayClient(() => turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'ler_preco', { sku: 'X1' }), toolUse('toolu_03', 'reservar', { sku: 'X1' })));
    // The run's first save is the checkpoint of the batch, while toolu_01 runs and toolu_02 waits for the slot.
    const store = faultyStore(new InMemoryRunStore(), failOnce('save'));

    let atRejection: string[] = [];
    const error = await streamToolLoop({ client, model: MODEL, prompt: 'Reserve X1.', tools, store, context: { maxConcurrency: 1 } }).result.catch((e: unknown) => {
      atRejection = timeline.marks.map((m) => `${m.what} ${m.id}`);
      return e;
    });

    expect(error).toBeInstanceOf(RunStoreError);
    expect(atRejection).toEqual(['read_start toolu_01', 'read_end toolu_01']);
    expect(timeline.marks).toHaveLength(2);
  }, 15_000);
});

describe('a batch that waits for a person', () => {
  const batch = () => turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }), toolUse('toolu_02', 'ler_preco', { sku: 'X1' }), toolUse('toolu_03', 'reservar', { sku: 'X1' }));
  const script = (messages: readonly MessageParam[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('Reservado.')) : batch());
  const approving = (timeline: Timeline, wait?: Wait) => new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, wait)], approval: 'writes' });

  test('pauses only once the early reads are done and journaled; one that starts during the pause is not eager', async () => {
    const timeline = new Timeline();
    const store = markingStore(timeline);
    const stream = streamToolLoop({ client: replayClient(script), model: MODEL, prompt: 'Reserve X1.', tools: approving(timeline, sleep(50)), store, context: { maxConcurrency: 1 } });
    const events = await collect(stream);
    const run = await stream.result;
    const atReturn = timeline.marks.map((m) => `${m.what} ${m.id}`);

    expect(run.stopReason).toBe('approval_required');
    expect(atReturn).toEqual(['read_start toolu_01', 'read_end toolu_01', 'journaled toolu_01', 'read_start toolu_02', 'read_end toolu_02', 'journaled toolu_02']);
    const starts = events.flatMap((e) => (e.type === 'tool_start' ? [[e.toolUseId, e.eager]] : []));
    expect(starts).toEqual([
      ['toolu_01', true],
      ['toolu_02', false],
    ]);
  });

  test('the resume answers the early reads from the journal as they ended (ok), and runs the approved write', async () => {
    const timeline = new Timeline();
    const store = new InMemoryRunStore();
    const tools = approving(timeline);
    const paused = await streamToolLoop({ client: replayClient(script), model: MODEL, prompt: 'Reserve X1.', tools, store }).result;
    expect(paused.stopReason).toBe('approval_required');

    const resumed = await streamResumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_03: { approve: true } } });
    const events = await collect(resumed);
    const run = await resumed.result;

    expect(run.stopReason).toBe('end_turn');
    expect(timeline.find('write_end', 'toolu_03')).toBeDefined();
    expect(timeline.marks.filter((m) => m.what === 'read_start')).toHaveLength(2);
    const ends = events.flatMap((e) => (e.type === 'tool_end' ? [[e.toolUseId, e.outcome, e.durationMs === 0]] : []));
    expect(ends).toEqual(expect.arrayContaining([
      ['toolu_01', 'ok', true],
      ['toolu_02', 'ok', true],
      ['toolu_03', 'ok', expect.any(Boolean)],
    ]));
    expectValidTranscript(run.messages);
  });

  test('a journaled early read that failed is no failed write: on resume the approved write after it runs', async () => {
    const timeline = new Timeline();
    const store = new InMemoryRunStore();
    const tools = approving(timeline);
    const bad = (messages: readonly MessageParam[]) =>
      messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('Reservado.')) : turn('tool_use', toolUse('toolu_01', 'ler_preco', { sku: 5 }), toolUse('toolu_02', 'reservar', { sku: 'X1' }));
    const paused = await streamToolLoop({ client: replayClient(bad), model: MODEL, prompt: 'Reserve X1.', tools, store }).result;
    expect(paused.stopReason).toBe('approval_required');

    const run = await resumeToolLoop({ client: replayClient(bad), model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_02: { approve: true } } });

    expect(timeline.find('write_end', 'toolu_02')).toBeDefined();
    expect(resultsAt(run.messages, 2).map((r) => r.is_error ?? false)).toEqual([true, false]);
  });

  test("an early read's journal write that fails: the run rejects with the store's failure instead of pausing", async () => {
    const timeline = new Timeline();
    const store = faultyStore(new InMemoryRunStore(), failOnce('recordResult'));
    const result = streamToolLoop({ client: replayClient(script), model: MODEL, prompt: 'Reserve X1.', tools: approving(timeline), store }).result;

    await expect(result).rejects.toBeInstanceOf(RunStoreError);
    expect(timeline.find('write_start')).toBeUndefined();
  });
});

/** Set by a test: the approval rule of `audit` waits for it. */
let auditGate: Promise<void> = Promise.resolve();

class Auditor {
  ran: string[] = [];

  /** A read whose approval rule takes time to answer (a remote policy), and needs no person. */
  @Tool({ name: 'audit', effect: 'read', approval: async () => auditGate.then(() => false) })
  async audit(@Param() account: string, @Ctx() ctx: ToolContext) {
    this.ran.push(ctx.toolUseId);
    return `audit of ${account}`;
  }
}

const auditManifest = defineToolManifest([
  {
    provider: Auditor,
    method: 'audit',
    definition: {
      name: 'audit',
      description: 'Audits an account.',
      input_schema: { type: 'object' as const, properties: { account: { type: 'string' } }, required: ['account'], additionalProperties: false },
    },
    effect: 'read' as const,
    inputClass: AccountInput,
    parameters: [{ kind: 'param' as const, property: 'account' }, { kind: 'ctx' as const }],
  },
]);

test('a read whose approval is decided after the model moved past it starts at the decision, while the model still writes', async () => {
  let open!: () => void;
  auditGate = new Promise<void>((resolve) => (open = resolve));
  const tools = new ToolContainer({ manifest: auditManifest, providers: [new Auditor()] });
  const { client } = await scripted([
    {
      ...turn('tool_use', toolUse('toolu_01', 'audit', { account: 'main' }), text('Enquanto a auditoria corre, escrevo um texto bem longo.')),
      // Slow deltas: the decision comes (at the first one) long before the message ends.
      stream: { chunkChars: 4, delayMs: (event: { type: string }) => (event.type === 'content_block_delta' ? 20 : 0) },
    },
    turn('end_turn', text('Pronto.')),
  ]);

  const stream = streamToolLoop({ client, model: MODEL, prompt: 'Audite.', tools, store: new InMemoryRunStore() });
  const events: ToolStreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (event.type === 'text_delta') open();
  }
  await stream.result;

  const start = events.findIndex((e) => e.type === 'tool_start' && e.toolUseId === 'toolu_01');
  const lastDelta = events.map((e) => e.type === 'text_delta' && e.turn === 1).lastIndexOf(true);
  expect(start).toBeGreaterThan(-1);
  expect(events[start]).toMatchObject({ eager: true });
  expect(start).toBeLessThan(lastDelta);
});
