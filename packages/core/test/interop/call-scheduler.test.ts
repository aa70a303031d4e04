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
