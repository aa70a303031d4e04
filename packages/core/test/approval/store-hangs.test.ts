import 'reflect-metadata';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { getEventListeners } from 'node:events';
import { InMemoryRunStore, RunStoreError, resumeToolLoop, runToolLoop, type RunStore } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { refundTools, replayClient } from './fixtures/refunds';
import { StoreSilence, untilAnswered } from '../../src/loop/store-silence';

// A store that stops answering (a pool with no free connection, a lock wait, a half-open TCP
// connection) must not keep an aborted run from settling: a second after the abort, the run gives
// up the store call it is waiting for and the run rejects with a RunStoreError that says the store did not answer and
// that the claim is left to lapse (released: false). Exactly once still holds: a journal entry
// that may or may not have landed is read back by the next resume, never run over blindly.

const MODEL = 'claude-haiku-5-5';
const LEASE = 1_000;
const batch = turn('tool_use', toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 }));
const script = (messages: readonly MessageParam[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('done')) : batch);

const settledWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      (value) => ({ settled: 'resolved' as const, value }),
      (error: unknown) => ({ settled: 'rejected' as const, error }),
    ),
    new Promise<{ settled: 'never' }>((resolve) => setTimeout(() => resolve({ settled: 'never' }), ms).unref()),
  ]);

/** `inner`, with every `save` answered `ms` later: a healthy store under load. */
function slow(inner: InMemoryRunStore, ms: number): RunStore {
  const later = <T>(value: Promise<T>) => value.then((v) => new Promise<T>((resolve) => setTimeout(() => resolve(v), ms)));
  return Object.assign(Object.create(inner) as RunStore, { claimLeaseMs: inner.claimLeaseMs, save: (s: Parameters<RunStore['save']>[0], r: number) => later(inner.save(s, r)) });
}

/** `inner`, but `hang` calls never answer (`landed`: after reaching the store, as a reply lost on the way back). */
function hangs(inner: InMemoryRunStore, hang: 'save' | 'recordResult', landed = false): RunStore {
  const never = new Promise<never>(() => undefined);
  return {
    claimLeaseMs: inner.claimLeaseMs,
    create: (s) => inner.create(s),
    load: (id) => inner.load(id),
    save: (s, r) => (hang === 'save' ? never : inner.save(s, r)),
    claim: (id, o) => inner.claim(id, o),
    renew: (id, r) => inner.renew(id, r),
    release: (s, r) => inner.release(s, r),
    recordResult: (id, result) => (hang === 'recordResult' ? (landed ? inner.recordResult(id, result).then(() => never) : never) : inner.recordResult(id, result)),
    journaledResult: (id, t) => inner.journaledResult(id, t),
    journaledResults: (id) => inner.journaledResults(id),
  };
}

function abortAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms).unref();
  return controller.signal;
}

describe('a store that stops answering', () => {
  it('an abort settles the run even while its checkpoint save hangs, and the write runs once after the lease', async () => {
    let now = 0;
    const inner = new InMemoryRunStore({ claimLeaseMs: LEASE, clock: () => now });
    const { tools, provider } = refundTools('none');

    const outcome = await settledWithin(runToolLoop({ client: replayClient(script), model: MODEL, tools, store: hangs(inner, 'save'), prompt: 'x', signal: abortAfter(100) }), 2_000);

    expect(outcome.settled).toBe('rejected');
    const error = (outcome as { error: RunStoreError }).error;
    expect(error).toBeInstanceOf(RunStoreError);
    const { runId } = error;
    expect((await inner.load(runId))?.state.status).toBe('running');
    expect(error).toMatchObject({ problem: 'store_failed', operation: 'save', released: false, unjournaled: [] });
    expect(error.message).toContain('the store did not answer save in time once the run was aborted');
    expect(error.message).toContain('a resume is refused as claimed until the lease lapses');
    expect(provider.ran).toEqual([]);

    // The claim lapses; a resume carries the run on, and the write runs once.
    now += LEASE + 1;
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: inner, runId, decisions: {} });
    expect(done.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual(['toolu_refund']);
  });

  it('a store that answers a save in flight at the abort (a healthy one, slow) lets the run end aborted and released, as without the grace', async () => {
    const inner = new InMemoryRunStore({ claimLeaseMs: LEASE });
    const { tools, provider } = refundTools('none');
    const controller = new AbortController();
    let saves = 0;
    const store = slow(inner, 200);
    const save = store.save.bind(store);
    // Aborted while the first checkpoint save is on its way: the store answers 200 ms later.
    store.save = (s, r) => {
      if (saves++ === 0) setTimeout(() => controller.abort(), 20);
      return save(s, r);
    };

    const outcome = await settledWithin(runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'x', signal: controller.signal }), 5_000);

    expect(outcome).toMatchObject({ settled: 'resolved', value: { stopReason: 'aborted' } });
    const { runId } = (outcome as { value: { runId: string } }).value;
    // Released: a resume takes it at once, without waiting for the lease.
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: inner, runId, decisions: {} });
    expect(done.stopReason).toBe('end_turn');
    // The refund the abort answered "Not executed" stays unrun: the model was told and moved on.
    expect(provider.ran).toEqual([]);
  });

  it('a run that ends leaves no listener of its store calls on its signal (a server-wide signal shared by every run)', async () => {
    const inner = new InMemoryRunStore({ claimLeaseMs: LEASE });
    const { tools } = refundTools('none');
    const signal = new AbortController().signal;
    for (let i = 0; i < 3; i++) {
      const done = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store: inner, prompt: 'x', signal });
      expect(done.stopReason).toBe('end_turn');
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('a store written in plain JavaScript, with no claimLeaseMs, gets the same grace for a create in flight at the abort', async () => {
    const inner = new InMemoryRunStore({ claimLeaseMs: LEASE });
    const { tools } = refundTools('none');
    const controller = new AbortController();
    const store = Object.assign(Object.create(inner) as RunStore, {
      claimLeaseMs: undefined as unknown as number,
      create: (s: Parameters<RunStore['create']>[0]) => {
        setTimeout(() => controller.abort(), 20);
        return inner.create(s).then((v) => new Promise<typeof v>((resolve) => setTimeout(() => resolve(v), 200)));
      },
    });

    const outcome = await settledWithin(runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'x', signal: controller.signal }), 5_000);

    expect(outcome).toMatchObject({ settled: 'resolved', value: { stopReason: 'aborted' } });
  });

  it('a journal write unanswered for a whole lease, with nothing aborted, ends the run and stops renewing its claim, so a resume recovers it after the lease', async () => {
    const lease = 300;
    const inner = new InMemoryRunStore({ claimLeaseMs: lease });
    let renewals = 0;
    const store = Object.assign(hangs(inner, 'recordResult'), {
      renew: (id: string, revision: number) => {
        renewals += 1;
        return inner.renew(id, revision);
      },
    });
    const { tools, provider } = refundTools('none');

    const outcome = await settledWithin(runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'x' }), 5_000);

    expect(outcome.settled).toBe('rejected');
    const error = (outcome as { error: RunStoreError }).error;
    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ problem: 'store_failed', operation: 'recordResult', released: false, unjournaled: ['toolu_refund'] });
    expect(error.message).toContain(`the store did not answer recordResult within the claim lease (${lease} ms)`);
    expect(provider.ran).toEqual(['toolu_refund']);

    // No renewal after the run ended: the claim lapses and a resume takes the run over.
    const renewed = renewals;
    await new Promise((resolve) => setTimeout(resolve, lease * 2));
    expect(renewals).toBe(renewed);
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: inner, runId: error.runId, decisions: {} });
    expect(done.stopReason).toBe('end_turn');
    // Named unjournaled, and its entry never landed: it runs again, with the same ctx.toolUseId.
    expect(provider.ran).toEqual(['toolu_refund', 'toolu_refund']);
  });

  it.each(['load', 'claim'] as const)('a resume whose %s is unanswered for a whole lease rejects with a RunStoreError naming it, and runs nothing', async (op) => {
    const lease = 200;
    const inner = new InMemoryRunStore({ claimLeaseMs: lease });
    const { tools, provider } = refundTools('writes');
    const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store: inner, prompt: 'x' });
    const store = Object.assign(Object.create(inner) as RunStore, { claimLeaseMs: lease, [op]: () => new Promise<never>(() => undefined) });

    const outcome = await settledWithin(resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } }), 5_000);

    expect(outcome.settled).toBe('rejected');
    expect((outcome as { error: unknown }).error).toMatchObject({ name: 'RunStoreError', operation: op, message: expect.stringContaining(`did not answer ${op} within the claim lease (${lease} ms)`) });
    expect(provider.ran).toEqual([]);
  });

  it.each([
    ['landed', true, ['toolu_refund']],
    ['never landed', false, ['toolu_refund', 'toolu_refund']],
  ])('an abort while the journal write of a write hangs (%s) names the call, and a resume runs it again only if its entry is missing', async (_kind, landed, ranAfterResume) => {
    let now = 0;
    const inner = new InMemoryRunStore({ claimLeaseMs: LEASE, clock: () => now });
    const { tools, provider } = refundTools('none');

    const outcome = await settledWithin(
      runToolLoop({ client: replayClient(script), model: MODEL, tools, store: hangs(inner, 'recordResult', landed as boolean), prompt: 'x', signal: abortAfter(100) }),
      2_000,
    );

    expect(outcome.settled).toBe('rejected');
    const error = (outcome as { error: RunStoreError }).error;
    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ operation: 'recordResult', released: false, unjournaled: ['toolu_refund'] });
    expect(error.message).toContain('the store did not answer recordResult in time once the run was aborted');
    expect(error.message).toContain('with the same ctx.toolUseId');
    expect(provider.ran).toEqual(['toolu_refund']);

    now += LEASE + 1;
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: inner, runId: error.runId, decisions: {} });
    expect(done.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual(ranAfterResume);
  });
});

// The grace's own bookkeeping, at the function: a store call that answered must never be given up
// afterwards. A stale timer or listener would set the run's silence once the call had answered,
// and every later store call of the run would be refused as if the store had stopped answering.
describe('untilAnswered', () => {
  const grace = 20;
  const answerable = () => {
    let answer!: (value: string) => void;
    const pending = new Promise<string>((resolve) => (answer = resolve));
    return { pending, answer };
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('a call answered before the abort is not given up when the abort comes', async () => {
    const signal = new AbortController();
    const silences: unknown[] = [];
    const { pending, answer } = answerable();
    const answered = untilAnswered('save', () => pending, signal.signal, grace, (silence) => silences.push(silence));
    answer('saved');
    await expect(answered).resolves.toBe('saved');
    signal.abort();
    await pause(grace * 5);
    expect(silences).toEqual([]);
    expect(getEventListeners(signal.signal, 'abort')).toHaveLength(0);
  });

  it('a call answered within the grace is not given up when the grace ends', async () => {
    const signal = new AbortController();
    const silences: unknown[] = [];
    const { pending, answer } = answerable();
    const answered = untilAnswered('save', () => pending, signal.signal, grace, (silence) => silences.push(silence));
    signal.abort();
    answer('saved');
    await expect(answered).resolves.toBe('saved');
    await pause(grace * 5);
    expect(silences).toEqual([]);
  });

  it('a call still unanswered when the grace ends is given up, once; the grace is the lease when that is shorter than a second', async () => {
    const signal = new AbortController();
    const silences: unknown[] = [];
    const { pending, answer } = answerable();
    const answered = untilAnswered('recordResult', () => pending, signal.signal, grace, (silence) => silences.push(silence));
    answered.catch(() => undefined);
    signal.abort();
    // A timer of the lease's 20 ms fires before this later, longer one: no race with the host's load.
    await pause(grace * 5);
    expect(silences).toHaveLength(1);
    await expect(answered).rejects.toBeInstanceOf(StoreSilence);
    expect(getEventListeners(signal.signal, 'abort')).toHaveLength(0);
    answer('late');
    await pause(grace * 5);
    expect(silences).toHaveLength(1);
  });

  it('a call made after the abort is given up once the lease has passed', async () => {
    const signal = new AbortController();
    signal.abort();
    const silences: unknown[] = [];
    const answered = untilAnswered('release', () => new Promise<string>(() => undefined), signal.signal, grace, (silence) => silences.push(silence));
    await expect(answered).rejects.toBeInstanceOf(StoreSilence);
    expect(silences).toHaveLength(1);
  });

  it('a call unanswered for a whole lease is given up once, with nothing aborted, and says so', async () => {
    const silences: StoreSilence[] = [];
    const { pending, answer } = answerable();
    const answered = untilAnswered('recordResult', () => pending, undefined, grace, (silence) => silences.push(silence));
    await expect(answered).rejects.toThrow(`the store did not answer recordResult within the claim lease (${grace} ms), so whether it took effect is unknown`);
    expect(silences.map((s) => s.reason)).toEqual(['lease']);
    answer('late');
    await pause(grace * 5);
    expect(silences).toHaveLength(1);
  });

  it('a call given up at the lease is not given up again when the run aborts later, and leaves no listener', async () => {
    const signal = new AbortController();
    const silences: StoreSilence[] = [];
    const answered = untilAnswered('save', () => new Promise<string>(() => undefined), signal.signal, grace, (silence) => silences.push(silence));
    await expect(answered).rejects.toBeInstanceOf(StoreSilence);
    expect(getEventListeners(signal.signal, 'abort')).toHaveLength(0);
    signal.abort();
    await pause(grace * 5);
    expect(silences.map((s) => s.reason)).toEqual(['lease']);
  });

  it('a call answered within the lease is never given up afterwards, signal or not', async () => {
    const silences: unknown[] = [];
    const signal = new AbortController();
    for (const given of [undefined, signal.signal]) {
      const { pending, answer } = answerable();
      const answered = untilAnswered('save', () => pending, given, grace, (silence) => silences.push(silence));
      await pause(grace / 4);
      answer('saved');
      await expect(answered).resolves.toBe('saved');
    }
    await pause(grace * 5);
    expect(silences).toEqual([]);
  });

  it('an abort while a call waits gives it the grace from the abort, in place of the rest of the lease', async () => {
    // The grace is a second here (the lease); aborted at 600 ms, it ends at 1,600: the margins leave room for a loaded host.
    const lease = 1_000;
    const signal = new AbortController();
    const silences: StoreSilence[] = [];
    const answered = untilAnswered('save', () => new Promise<string>(() => undefined), signal.signal, lease, (silence) => silences.push(silence));
    answered.catch(() => undefined);
    await pause(600);
    signal.abort();
    // Past the lease, within the grace.
    await pause(500);
    expect(silences).toEqual([]);
    await expect(answered).rejects.toThrow('the store did not answer save in time once the run was aborted');
    expect(silences.map((s) => s.reason)).toEqual(['abort']);
  });

  it('a call the store failed before the abort keeps its error and is not given up when the abort comes', async () => {
    const signal = new AbortController();
    const silences: unknown[] = [];
    const refused = new Error('connection lost');
    const answered = untilAnswered('save', () => Promise.reject(refused), signal.signal, grace, (silence) => silences.push(silence));
    await expect(answered).rejects.toBe(refused);
    expect(getEventListeners(signal.signal, 'abort')).toHaveLength(0);
    signal.abort();
    await pause(grace * 5);
    expect(silences).toEqual([]);
  });
});
