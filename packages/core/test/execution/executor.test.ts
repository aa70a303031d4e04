import { IsString, ValidateBy } from 'class-validator';
import type { ContentBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { Param, Tool, ToolContainer, defineToolManifest, type ToolEvent } from '@toolwright/core';
import { runSchedule, type ScheduledCall } from '../../src/execution/schedule';
import { answer, type CallResult } from '../../src/execution/call.types';
import {
  Lab,
  ReadTools,
  WriteTools,
  drain,
  drive,
  flush,
  labContainer,
  labManifest,
  type Behaviour,
  type GuardPlan,
} from './lab';

// Plain, named cases for each promise the executor makes, with every message a model reads.
// Time is jest's fake clock; tools "take" a few virtual milliseconds.

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
});

afterEach(() => {
  jest.useRealTimers();
});

const ok = (ms = 1): Behaviour => ({ kind: 'ok', ms, sync: false, value: 'string' });
const fails = (ms = 1): Behaviour => ({ kind: 'throw', ms, sync: false, error: 'error' });
const hang: Behaviour = { kind: 'hang' };

interface Scripted {
  name: string;
  behaviour?: Behaviour;
  guard?: GuardPlan;
  input?: unknown;
}

/** A batch of calls `toolu_00`, `toolu_01`, ... with a script for each, and a lab to watch them. */
function script(calls: Scripted[]) {
  const lab = new Lab();
  const content: ContentBlockParam[] = calls.map((call, i) => {
    const id = `toolu_${String(i).padStart(2, '0')}`;
    lab.plans.set(id, { behaviour: call.behaviour ?? ok(), guard: call.guard ?? 'allow' });
    return { type: 'tool_use', id, name: call.name, input: call.input ?? { key: 'k1' } };
  });
  return { lab, content, id: (i: number) => `toolu_${String(i).padStart(2, '0')}` };
}

const contents = (results: ToolResultBlockParam[]) => results.map((r) => r.content);
const okResult = (id: string): ToolResultBlockParam => ({ type: 'tool_result', tool_use_id: id, content: 'done' });

describe('a batch is cut into runs of reads and single writes', () => {
  it('two reads run together, then the write alone (the README timeline)', async () => {
    const { lab, content } = script([
      { name: 'read_a', behaviour: ok(3) },
      { name: 'read_b', behaviour: ok(2) },
      { name: 'write_a', behaviour: ok(1) },
    ]);
    const started = Date.now();
    const { value, settledAt } = await drive(labContainer(lab).execute(content, { auth: lab, onEvent: lab.onEvent }));

    const timeline = lab.events.map(({ event }) => `${event.at - started}ms ${event.type} ${event.tool}`);
    expect(timeline).toEqual([
      '0ms call_start read_a',
      '0ms call_start read_b',
      '2ms call_end read_b',
      '3ms call_end read_a',
      '3ms call_start write_a',
      '4ms call_end write_a',
    ]);
    // The run of reads takes the longest read (3 ms), not the sum (5 ms).
    expect(settledAt - started).toBe(4);
    expect(value).toEqual([okResult('toolu_00'), okResult('toolu_01'), okResult('toolu_02')]);
  });

  it('results come back in tool_use order, whatever order the calls finish in', async () => {
    const { lab, content } = script([3, 2, 1, 0].map((ms) => ({ name: 'read_a', behaviour: ok(ms) })));
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab, onEvent: lab.onEvent }));

    const ends = lab.events.filter(({ event }) => event.type === 'call_end').map(({ event }) => event.toolUseId);
    expect(ends).toEqual(['toolu_03', 'toolu_02', 'toolu_01', 'toolu_00']);
    expect(value.map((r) => r.tool_use_id)).toEqual(['toolu_00', 'toolu_01', 'toolu_02', 'toolu_03']);
  });

  it('a tool that does not declare its effect is a write: it runs alone', async () => {
    // write_b has no `effect` in @Tool; the default is 'write'.
    const { lab, content } = script([
      { name: 'read_a', behaviour: ok(2) },
      { name: 'write_b', behaviour: ok(1) },
      { name: 'read_a', behaviour: ok(2) },
    ]);
    await drive(labContainer(lab).execute(content, { auth: lab, onEvent: lab.onEvent }));

    const [before, write, after] = ['toolu_00', 'toolu_01', 'toolu_02'].map((id) => lab.traces.get(id)!);
    expect(before.end!).toBeLessThan(write.first);
    expect(write.end!).toBeLessThan(after.first);
    expect(lab.events.find(({ event }) => event.toolUseId === 'toolu_01')!.event.effect).toBe('write');
  });

  it('a read written after a write sees the write’s effect', async () => {
    class Counter {
      value = 0;

      @Tool({ name: 'get', effect: 'read' })
      async get() {
        await Promise.resolve();
        return String(this.value);
      }

      @Tool({ name: 'increment', effect: 'write' })
      async increment() {
        await new Promise((resolve) => setTimeout(resolve, 5));
        this.value++;
      }
    }
    class NoInput {}
    const definition = (name: string) => ({ name, description: `${name} the counter.`, input_schema: { type: 'object' as const, properties: {} } });
    const manifest = defineToolManifest([
      { provider: Counter, method: 'get', definition: definition('get'), effect: 'read', inputClass: NoInput, parameters: [] },
      { provider: Counter, method: 'increment', definition: definition('increment'), effect: 'write', inputClass: NoInput, parameters: [] },
    ]);
    const container = new ToolContainer({ manifest, providers: [new Counter()] });
    const use = (id: string, name: string): ContentBlockParam => ({ type: 'tool_use', id, name, input: {} });

    const { value } = await drive(container.execute([use('a', 'get'), use('b', 'increment'), use('c', 'get'), use('d', 'get')]));
    expect(contents(value)).toEqual(['0', undefined, '1', '1']);
  });
});

describe('maxConcurrency bounds the reads in flight', () => {
  const reads = (n: number) => script(Array.from({ length: n }, () => ({ name: 'read_a', behaviour: ok(1) })));

  it('the container default is 8', async () => {
    const { lab, content } = reads(12);
    const container = new ToolContainer<Lab>({ manifest: labManifest, providers: [new ReadTools(), new WriteTools()] });
    await drive(container.execute(content, { auth: lab }));
    expect(lab.maxInFlightReads).toBe(8);
  });

  it('a container default of 3 holds 12 reads to 3 at a time: four waves of 1 ms', async () => {
    const { lab, content } = reads(12);
    const started = Date.now();
    const { settledAt } = await drive(labContainer(lab, { maxConcurrency: 3 }).execute(content, { auth: lab }));
    expect(lab.maxInFlightReads).toBe(3);
    expect(settledAt - started).toBe(4);
  });

  it('a per-execute maxConcurrency overrides the container default', async () => {
    const { lab, content } = reads(12);
    await drive(labContainer(lab, { maxConcurrency: 2 }).execute(content, { auth: lab, maxConcurrency: 5 }));
    expect(lab.maxInFlightReads).toBe(5);
  });

  it('twenty concurrent reads sharing one caller signal add one abort listener, not one per call', async () => {
    const { lab, content } = reads(20);
    const controller = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await drive(labContainer(lab).execute(content, { auth: lab, maxConcurrency: 20, signal: controller.signal }));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(lab.maxInFlightReads).toBe(20);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('maxConcurrency 1 runs reads one by one', async () => {
    const { lab, content } = reads(4);
    await drive(labContainer(lab).execute(content, { auth: lab, maxConcurrency: 1 }));
    expect(lab.maxInFlightReads).toBe(1);
  });
});

describe("after a failed write: 'halt' (default) or 'continue'", () => {
  const batch = () =>
    script([
      { name: 'read_a' },
      { name: 'write_a', behaviour: fails() },
      { name: 'read_a' },
      { name: 'write_b' },
    ]);
  const notExecuted = (id: string) => ({
    type: 'tool_result',
    tool_use_id: id,
    is_error: true,
    content: 'Not executed: an earlier call in this batch (write_a, toolu_01) failed.',
  });

  it("'halt' answers every later call 'not executed', naming the failed call, and starts none of them", async () => {
    const { lab, content } = batch();
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab, onEvent: lab.onEvent }));

    expect(value[0]).toEqual(okResult('toolu_00'));
    expect(value[1].is_error).toBe(true);
    expect(value.slice(2)).toEqual([notExecuted('toolu_02'), notExecuted('toolu_03')]);
    expect(lab.traces.has('toolu_02') || lab.traces.has('toolu_03')).toBe(false);
    expect(lab.events.filter(({ event }) => event.type === 'call_skipped').map(({ event }) => event)).toEqual([
      { type: 'call_skipped', tool: 'read_a', toolUseId: 'toolu_02', effect: 'read', at: expect.any(Number), reason: 'halted' },
      { type: 'call_skipped', tool: 'write_b', toolUseId: 'toolu_03', effect: 'write', at: expect.any(Number), reason: 'halted' },
    ]);
  });

  it("'continue' runs the later calls anyway", async () => {
    const { lab, content } = batch();
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab, onWriteFailure: 'continue' }));
    expect(value[2]).toEqual(okResult('toolu_02'));
    expect(value[3]).toEqual(okResult('toolu_03'));
  });

  it("a container default of 'continue' can be overridden by 'halt' per execute, and the reverse", async () => {
    const first = batch();
    const halted = await drive(labContainer(first.lab, { onWriteFailure: 'continue' }).execute(first.content, { auth: first.lab, onWriteFailure: 'halt' }));
    expect(halted.value[3]).toEqual(notExecuted('toolu_03'));

    const second = batch();
    const continued = await drive(labContainer(second.lab, { onWriteFailure: 'halt' }).execute(second.content, { auth: second.lab, onWriteFailure: 'continue' }));
    expect(continued.value[3]).toEqual(okResult('toolu_03'));
  });

  it.each<[string, Scripted]>([
    ['its input is invalid', { name: 'write_a', input: { key: 42 } }],
    ['its guard refuses', { name: 'write_b', guard: 'refuse' }],
    ['its guard throws', { name: 'write_b', guard: 'throw' }],
    ['it throws', { name: 'write_a', behaviour: fails() }],
    ['it rejects with a non-Error value', { name: 'write_a', behaviour: { kind: 'throw', ms: 0, sync: false, error: 'undefined' } }],
    ['it times out', { name: 'write_a', behaviour: hang }],
    ['it is an unknown tool, whose effect nobody knows', { name: 'write_everything' }],
  ])('a write halts the batch when %s', async (_, failing) => {
    const { lab, content } = script([failing, { name: 'read_a' }]);
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab }));
    expect(value[0].is_error).toBe(true);
    expect(value[1]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01',
      is_error: true,
      content: `Not executed: an earlier call in this batch (${failing.name}, toolu_00) failed.`,
    });
  });

  it.each<[string, Scripted]>([
    ['its input is invalid', { name: 'read_a', input: { key: 42 } }],
    ['its guard refuses', { name: 'read_b', guard: 'refuse' }],
    ['it throws', { name: 'read_a', behaviour: fails() }],
    ['it times out', { name: 'read_a', behaviour: hang }],
  ])('a failed read halts nothing: when %s the write after it still runs', async (_, failing) => {
    const { lab, content } = script([failing, { name: 'write_a' }, { name: 'read_a' }]);
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab }));
    expect(value[0].is_error).toBe(true);
    expect(value.slice(1)).toEqual([okResult('toolu_01'), okResult('toolu_02')]);
  });
});

describe('timeouts', () => {
  async function pending(promise: Promise<unknown>) {
    let settled = false;
    void promise.then(() => (settled = true));
    await flush();
    return () => settled;
  }

  it('a tool that never settles cannot hold execute beyond its timeout; its ctx.signal aborts', async () => {
    const { lab, content } = script([{ name: 'read_a', behaviour: hang }]);
    const execute = labContainer(lab).execute(content, { auth: lab });
    const settled = await pending(execute);

    jest.advanceTimersByTime(9);
    await flush();
    expect(settled()).toBe(false);
    jest.advanceTimersByTime(1);
    await flush();
    expect(settled()).toBe(true);

    expect(await execute).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_00', is_error: true, content: 'Timed out after 10 ms.' }]);
    expect(lab.traces.get('toolu_00')!.sawAbort).toBe(true);
  });

  it('a timed-out write says its effect is unknown', async () => {
    const { lab, content } = script([{ name: 'write_a', behaviour: hang }]);
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab }));
    expect(value[0].content).toBe('Timed out after 10 ms. This write may or may not have taken effect; check before retrying.');
  });

  it('a tool without its own timeoutMs gets the container default', async () => {
    const { lab, content } = script([{ name: 'write_b', behaviour: hang }]);
    const started = Date.now();
    const { value, settledAt } = await drive(labContainer(lab, { timeoutMs: 25 }).execute(content, { auth: lab }));
    expect(settledAt - started).toBe(25);
    expect(value[0].content).toBe('Timed out after 25 ms. This write may or may not have taken effect; check before retrying.');
  });

  it('a tool that fails after its timeout is logged as a warning, and its answer stays the timeout', async () => {
    // Rejects with the abort reason once its signal aborts, well after the answer was given.
    const { lab, content } = script([{ name: 'read_a', behaviour: ok(50) }]);
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab }));
    await drain();
    expect(value[0].content).toBe('Timed out after 10 ms.');
    expect(lab.logged).toEqual([{ level: 'warn', message: 'toolwright: read_a (toolu_00) failed after it was abandoned:' }]);
  });

  it('a guard still pending at the timeout never lets its method start', async () => {
    // The guard answers "yes" at 20 ms, after the call timed out at 10 ms and the read after it ran.
    const { lab, content } = script([{ name: 'write_b', guard: 'allow_late' }, { name: 'read_a' }]);
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab, onWriteFailure: 'continue' }));
    await drain();
    expect(contents(value)).toEqual(['Timed out after 10 ms. This write may or may not have taken effect; check before retrying.', 'done']);
    expect(lab.traces.get('toolu_00')!.methodStarted).toBeUndefined();
  });
});

describe('cancellation through execute({ signal })', () => {
  it('an already aborted signal: every call is answered "Cancelled." and none starts', async () => {
    const { lab, content } = script([{ name: 'read_a' }, { name: 'write_a' }, { name: 'nope' }]);
    lab.abort();
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab, signal: lab.controller.signal, onEvent: lab.onEvent }));

    expect(contents(value)).toEqual(['Cancelled.', 'Cancelled.', 'Cancelled.']);
    expect(value.every((r) => r.is_error)).toBe(true);
    expect(lab.traces.size).toBe(0);
    expect(lab.events.map(({ event }) => [event.type, event.type === 'call_skipped' && event.reason])).toEqual([
      ['call_skipped', 'cancelled'],
      ['call_skipped', 'cancelled'],
      ['call_skipped', 'cancelled'],
    ]);
  });

  it('aborting mid-batch: running calls see their signal abort, nothing new starts, execute answers at once', async () => {
    const { lab, content } = script([
      // read_wait's timeout is a minute: only the abort ends it.
      { name: 'read_wait', behaviour: hang },
      { name: 'read_a', behaviour: ok(2) },
      { name: 'write_a' },
    ]);
    // Aborted once the second read has its answer, however slow this machine is to get there.
    void (async () => {
      while (!lab.traces.get('toolu_01')?.completed) await new Promise((resolve) => setImmediate(resolve));
      lab.abort();
    })();
    const { value, settledAt } = await drive(labContainer(lab).execute(content, { auth: lab, signal: lab.controller.signal }));

    expect(settledAt).toBe(lab.abortedAt!.now);
    expect(value).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_00', is_error: true, content: 'Cancelled.' },
      okResult('toolu_01'),
      { type: 'tool_result', tool_use_id: 'toolu_02', is_error: true, content: 'Cancelled.' },
    ]);
    expect(lab.traces.get('toolu_00')!.sawAbort).toBe(true);
    expect(lab.traces.has('toolu_02')).toBe(false);
  });

  it('a write cancelled while running says its effect is unknown', async () => {
    const { lab, content } = script([{ name: 'write_a', behaviour: hang }, { name: 'read_a' }]);
    setTimeout(() => lab.abort(), 5);
    const { value } = await drive(labContainer(lab).execute(content, { auth: lab, signal: lab.controller.signal }));
    expect(contents(value)).toEqual(['Cancelled while running; whether this write took effect is unknown.', 'Cancelled.']);
  });

  it('an abort from inside a tool’s own synchronous code cancels that call at once', async () => {
    const { lab, content } = script([{ name: 'read_a', behaviour: { kind: 'abort_batch', ms: 3 } }, { name: 'write_a' }]);
    const { value, settledAt } = await drive(labContainer(lab).execute(content, { auth: lab, signal: lab.controller.signal }));
    expect(settledAt).toBe(lab.abortedAt!.now);
    expect(contents(value)).toEqual(['Cancelled.', 'Cancelled.']);
    expect(lab.traces.get('toolu_00')!.sawAbort).toBe(true);
  });
});

describe('onEvent', () => {
  const batch = () =>
    script([
      { name: 'read_a', behaviour: ok(2) },
      { name: 'read_b', behaviour: { kind: 'tool_error', ms: 1, sync: false, blocks: false } },
      { name: 'nope' },
      { name: 'write_a' },
    ]);

  it('reports call_start, call_end (effect, duration, outcome) and call_skipped, to the container and to execute', async () => {
    const { lab, content } = batch();
    const fromContainer: ToolEvent[] = [];
    const container = new ToolContainer<Lab>({
      manifest: labManifest,
      providers: [new ReadTools(), new WriteTools()],
      logger: lab.logger,
      onEvent: (e) => fromContainer.push(e),
    });
    const started = Date.now();
    await drive(container.execute(content, { auth: lab, onEvent: lab.onEvent }));

    const at = (ms: number) => started + ms;
    const expected: ToolEvent[] = [
      { type: 'call_start', tool: 'read_a', toolUseId: 'toolu_00', effect: 'read', at: at(0) },
      { type: 'call_start', tool: 'read_b', toolUseId: 'toolu_01', effect: 'read', at: at(0) },
      { type: 'call_end', tool: 'read_b', toolUseId: 'toolu_01', effect: 'read', at: at(1), durationMs: 1, outcome: 'tool_error' },
      { type: 'call_end', tool: 'read_a', toolUseId: 'toolu_00', effect: 'read', at: at(2), durationMs: 2, outcome: 'ok' },
      { type: 'call_start', tool: 'nope', toolUseId: 'toolu_02', effect: 'unknown', at: at(2) },
      { type: 'call_end', tool: 'nope', toolUseId: 'toolu_02', effect: 'unknown', at: at(2), durationMs: 0, outcome: 'unknown_tool' },
      { type: 'call_skipped', tool: 'write_a', toolUseId: 'toolu_03', effect: 'write', at: at(2), reason: 'halted' },
    ];
    expect(lab.events.map(({ event }) => event)).toEqual(expected);
    expect(fromContainer).toEqual(expected);
  });

  it('a listener that throws is logged and changes no result', async () => {
    const quiet = batch();
    const { value: expected } = await drive(labContainer(quiet.lab).execute(quiet.content, { auth: quiet.lab }));

    const noisy = batch();
    const { value } = await drive(
      labContainer(noisy.lab).execute(noisy.content, {
        auth: noisy.lab,
        onEvent: () => {
          throw new Error('dashboard is down');
        },
      }),
    );
    expect(value).toEqual(expected);
    expect(noisy.lab.logged.map((l) => l.message)).toEqual([
      'toolwright: an onEvent listener threw on call_start; results are unaffected:',
      'toolwright: an onEvent listener threw on call_start; results are unaffected:',
      'toolwright: an onEvent listener threw on call_end; results are unaffected:',
      'toolwright: an onEvent listener threw on call_end; results are unaffected:',
      'toolwright: an onEvent listener threw on call_start; results are unaffected:',
      'toolwright: an onEvent listener threw on call_end; results are unaffected:',
      'toolwright: an onEvent listener threw on call_skipped; results are unaffected:',
    ]);
  });
});

describe('user code that throws during validation', () => {
  class TrimmedInput {
    // A custom constraint with a bug: it throws on some values instead of refusing them.
    @ValidateBy({ name: 'known', validator: { validate: (value: unknown) => ({ k1: true } as Record<string, boolean>)[value as string] ?? (null as unknown as { x: boolean }).x } })
    @IsString()
    key!: string;
  }

  class TrimTools {
    @Tool({ name: 'trimmed', effect: 'read' })
    trimmed(@Param() key: string) {
      return key;
    }
  }

  it('fails that call alone, as an internal error; the rest of the batch is answered normally', async () => {
    const manifest = defineToolManifest([
      ...labManifest.entries,
      {
        provider: TrimTools,
        method: 'trimmed',
        definition: { name: 'trimmed', description: 'Echoes a trimmed key.', input_schema: { type: 'object', properties: { key: { type: 'string' } } } },
        effect: 'read',
        inputClass: TrimmedInput,
        parameters: [{ kind: 'param', property: 'key' }],
      },
    ]);
    const lab = new Lab();
    lab.plans.set('w', { behaviour: ok(), guard: 'allow' });
    lab.plans.set('r', { behaviour: ok(), guard: 'allow' });
    const container = new ToolContainer<Lab>({ manifest, providers: [new ReadTools(), new WriteTools(), new TrimTools()], logger: lab.logger });
    const { value } = await drive(
      container.execute(
        [
          { type: 'tool_use', id: 'bad', name: 'trimmed', input: { key: 'k7' } },
          { type: 'tool_use', id: 'good', name: 'trimmed', input: { key: 'k1' } },
          { type: 'tool_use', id: 'r', name: 'read_a', input: { key: 'k1' } },
          { type: 'tool_use', id: 'w', name: 'write_a', input: { key: 'k1' } },
        ],
        { auth: lab },
      ),
    );
    expect(value).toEqual([
      { type: 'tool_result', tool_use_id: 'bad', is_error: true, content: 'Internal error in trimmed. It was logged; do not retry with the same input.' },
      { type: 'tool_result', tool_use_id: 'good', content: 'k1' },
      okResult('r'),
      okResult('w'),
    ]);
    expect(lab.logged).toEqual([{ level: 'error', message: 'toolwright: tool trimmed (bad) failed during validation:' }]);
  });
});

describe('runSchedule with options no container would pass', () => {
  const calls: ScheduledCall[] = [
    { id: 'w', name: 'w', input: {}, mayWrite: true },
    { id: 'r1', name: 'r', input: {}, mayWrite: false },
    { id: 'r2', name: 'r', input: {}, mayWrite: false },
  ];
  const options = {
    signal: new AbortController().signal,
    run: async (call: ScheduledCall) => answer(call, call.mayWrite ? 'tool_error' : 'ok', call.id),
    skip: (call: ScheduledCall) => answer(call, 'not_executed', 'skipped'),
  };

  it.each([NaN, 0, -2, 1.5])('maxConcurrency %p still runs and answers every call', async (maxConcurrency) => {
    const results = await runSchedule(calls, { ...options, maxConcurrency, onWriteFailure: 'continue' }, []);
    expect(results.map((r) => r.result.content)).toEqual(['w', 'r1', 'r2']);
  });

  it('each result lands in the caller’s array as soon as it is known: a failure after it cannot take it away', async () => {
    const results: CallResult[] = new Array(calls.length);
    const run = async (call: ScheduledCall) => {
      if (call.id === 'r2') throw new Error('escaped the call');
      return answer(call, 'ok', call.id);
    };
    await expect(runSchedule(calls, { ...options, run, maxConcurrency: 1, onWriteFailure: 'continue' }, results)).rejects.toThrow('escaped the call');
    expect(results.map((r) => r?.result.content)).toEqual(['w', 'r1', undefined]);
  });

  it("an onWriteFailure that is neither 'halt' nor 'continue' halts: the safe side", async () => {
    const results = await runSchedule(calls, { ...options, maxConcurrency: 2, onWriteFailure: 'stop' as 'halt' }, []);
    expect(results.map((r) => r.outcome)).toEqual(['tool_error', 'not_executed', 'not_executed']);
  });
});
