import { ToolCallScheduler } from '@toolwright/core';
import { Timeline, deskContainer } from '../fixtures/desk-tools';

const ana = { customerId: 'C-ana' };
const tick = () => new Promise((resolve) => setImmediate(resolve));

test('calls started together are one batch: the write waits for the read before it, the read after it for the write', async () => {
  const timeline = new Timeline();
  const scheduler = new ToolCallScheduler(deskContainer(timeline), { auth: ana });

  await Promise.all([
    scheduler.run({ id: 'c1', name: 'lookup', input: { numero: 'A-0001' } }),
    scheduler.run({ id: 'c2', name: 'cancel', input: { numero: 'A-0001' } }),
    scheduler.run({ id: 'c3', name: 'lookup', input: { numero: 'A-0002' } }),
  ]);

  expect(timeline.seqOf('write_start', 'c2')).toBeGreaterThan(timeline.seqOf('read_end', 'c1'));
  expect(timeline.seqOf('read_start', 'c3')).toBeGreaterThan(timeline.seqOf('write_end', 'c2'));
});

test('a failed write halts the later calls of its step, even those started after its batch; another step runs', async () => {
  const timeline = new Timeline();
  const scheduler = new ToolCallScheduler(deskContainer(timeline), { auth: ana });
  const step = {};

  const first = scheduler.run({ id: 'c1', name: 'cancel', input: { numero: 'A-0000' } }, { step });
  await tick();
  const later = scheduler.run({ id: 'c2', name: 'lookup', input: { numero: 'A-0001' } }, { step });
  const otherStep = scheduler.run({ id: 'c3', name: 'lookup', input: { numero: 'A-0001' } }, { step: {} });
  const results = await Promise.all([first, later, otherStep]);

  expect(results.map((r) => [r.tool_use_id, r.is_error ?? false, r.content])).toEqual([
    ['c1', true, 'order A-0000 has shipped; it cannot be cancelled'],
    ['c2', true, 'Not executed: an earlier call in this batch (cancel, c1) failed.'],
    ['c3', false, JSON.stringify({ numero: 'A-0001', status: 'shipped' })],
  ]);
  expect(timeline.started()).toEqual(['c1', 'c3']);
});

test("with onWriteFailure 'continue' the step goes on, and without a step nothing halts across batches", async () => {
  for (const [options, step] of [[{ onWriteFailure: 'continue' as const }, {}], [{}, undefined]] as const) {
    const timeline = new Timeline();
    const scheduler = new ToolCallScheduler(deskContainer(timeline), { auth: ana, ...options });
    const first = scheduler.run({ id: 'c1', name: 'cancel', input: { numero: 'A-0000' } }, { step });
    await tick();
    const later = await scheduler.run({ id: 'c2', name: 'lookup', input: { numero: 'A-0001' } }, { step });
    await first;
    expect(later.is_error).toBeUndefined();
    expect(timeline.started()).toEqual(['c1', 'c2']);
  }
});

test('a denial is answered in its place as "Denied by the user" and halts what follows it, in its batch and its step; the calls before it run', async () => {
  const timeline = new Timeline();
  const scheduler = new ToolCallScheduler(deskContainer(timeline), { auth: ana });
  const step = {};

  const batch = [
    scheduler.run({ id: 'c1', name: 'lookup', input: { numero: 'A-0001' } }, { step }),
    scheduler.deny({ id: 'c2', name: 'refund', input: { numero: 'A-0001' } }, 'over the limit', { step }),
    scheduler.run({ id: 'c3', name: 'lookup', input: { numero: 'A-0002' } }, { step }),
  ];
  await tick();
  const later = scheduler.run({ id: 'c4', name: 'cancel', input: { numero: 'A-0001' } }, { step });
  const results = await Promise.all([...batch, later]);

  expect(results.map((r) => [r.tool_use_id, r.is_error ?? false, r.content])).toEqual([
    ['c1', false, JSON.stringify({ numero: 'A-0001', status: 'shipped' })],
    ['c2', true, 'Denied by the user: over the limit'],
    ['c3', true, 'Not executed: an earlier call in this batch (refund, c2) failed.'],
    ['c4', true, 'Not executed: an earlier call in this batch (refund, c2) failed.'],
  ]);
  expect(timeline.started()).toEqual(['c1']);
});

test('a denial waits for the calls before it like a write, and the first failure of a batch stays the cause of the halt', async () => {
  const timeline = new Timeline();
  const scheduler = new ToolCallScheduler(deskContainer(timeline), { auth: ana });

  const results = await Promise.all([
    scheduler.run({ id: 'c1', name: 'cancel', input: { numero: 'A-0000' } }),
    scheduler.deny({ id: 'c2', name: 'refund', input: { numero: 'A-0001' } }),
    scheduler.run({ id: 'c3', name: 'lookup', input: { numero: 'A-0002' } }),
  ]);

  expect(results.map((r) => r.content)).toEqual([
    'order A-0000 has shipped; it cannot be cancelled',
    'Denied by the user.',
    'Not executed: an earlier call in this batch (cancel, c1) failed.',
  ]);
  expect(timeline.started()).toEqual(['c1']);
});

test("with onWriteFailure 'continue' a denial is answered and the calls after it still run", async () => {
  const timeline = new Timeline();
  const scheduler = new ToolCallScheduler(deskContainer(timeline), { auth: ana, onWriteFailure: 'continue' });

  const results = await Promise.all([
    scheduler.deny({ id: 'c1', name: 'refund', input: { numero: 'A-0001' } }),
    scheduler.run({ id: 'c2', name: 'lookup', input: { numero: 'A-0002' } }),
  ]);

  expect(results.map((r) => r.is_error ?? false)).toEqual([true, false]);
  expect(timeline.started()).toEqual(['c2']);
});

test("calls of two runs started in the same tick are two batches: one run's failed write does not halt the other's call, nor does its abort cancel it", async () => {
  const timeline = new Timeline();
  const scheduler = new ToolCallScheduler(deskContainer(timeline), { auth: ana });
  const [runA, runB] = [new AbortController(), new AbortController()];

  const halted = await Promise.all([
    scheduler.run({ id: 'a1', name: 'cancel', input: { numero: 'A-0000' } }, { signal: runA.signal }),
    scheduler.run({ id: 'b1', name: 'lookup', input: { numero: 'A-0001' } }, { signal: runB.signal }),
  ]);
  expect(halted.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([['a1', true], ['b1', false]]);

  const aborted = [
    scheduler.run({ id: 'a2', name: 'lookup', input: { numero: 'A-0001' } }, { signal: runA.signal }),
    scheduler.run({ id: 'b2', name: 'lookup', input: { numero: 'A-0002' } }, { signal: runB.signal }),
  ];
  runA.abort();
  const [a2, b2] = await Promise.all(aborted);
  expect(a2.is_error).toBe(true);
  expect(b2).toMatchObject({ tool_use_id: 'b2', content: JSON.stringify({ numero: 'A-0002', status: 'shipped' }) });
  expect(b2.is_error).toBeUndefined();
});
